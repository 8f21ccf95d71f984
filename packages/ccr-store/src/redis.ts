// Public API of the subpath @caveman/ccr-store/redis: everything here is public. Kept apart from
// the root entry so that importing @caveman/ccr-store never loads network code; this subpath is
// the one place of the store that connects anywhere (only to the URL it is given).

export {
  DEFAULT_TEAM_IDLE_MS,
  DEFAULT_TEAM_MAX_AGE_MS,
  DEFAULT_TEAM_MAX_ORIGINAL_BYTES,
  openRedisStore,
  type RedisStoreOptions,
  teamKeys,
} from "./redis/store.js";
