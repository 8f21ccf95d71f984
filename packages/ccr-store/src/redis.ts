// Public API of the subpath @caveman/ccr-store/redis: everything here is public. Kept apart from
// the root entry so that importing @caveman/ccr-store never loads network code; this subpath is
// the one place of the store that connects anywhere (only to the URL it is given).

export { openRedisStore, type RedisStoreOptions, teamKeys } from "./redis/store.js";
