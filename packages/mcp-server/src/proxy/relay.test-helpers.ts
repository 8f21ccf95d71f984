// The relay test harness: a proxy between two pairs of PassThrough streams.
import { PassThrough } from "node:stream";
import { openMemoryStore } from "@caveman/ccr-store";
import { inlineRunner } from "@caveman/keep";
import { silentLogger } from "../logger.js";
import { ToolRegistry } from "../registry.js";
import { Session } from "../session.js";
import { createCavemanTools } from "../tools/index.js";
import type { BudgetLimits } from "./budget.js";
import { keepTransform } from "./keepTransform.js";
import { startProxy } from "./relay.js";
import type { TextTransform } from "./rewrite.js";

/** A proxy between two pairs of PassThrough streams; the test plays both client and server. */
export function harness(
  opts: {
    retrieve?: boolean;
    maxInboundBytes?: number;
    maxUpstreamBytes?: number;
    transform?: TextTransform;
    /** Compress through keep on this thread, originals in the harness's store. */
    keep?: boolean;
    limits?: BudgetLimits;
  } = {},
) {
  const clientIn = new PassThrough();
  const clientOut = new PassThrough();
  const serverIn = new PassThrough();
  const serverOut = new PassThrough();
  const ccr = openMemoryStore();
  const retrieve = opts.retrieve
    ? new ToolRegistry({
        tools: createCavemanTools({ families: ["retrieve"], session: new Session(), ccr }),
        logger: silentLogger,
        maxResultBytes: 1 << 24,
      })
    : undefined;
  const proxy = startProxy({
    stdin: clientIn,
    stdout: clientOut,
    upstream: { stdin: serverIn, stdout: serverOut },
    transform:
      opts.transform ??
      (opts.keep
        ? keepTransform({ run: inlineRunner, store: ccr })
        : (tool, text) => (text.length > 100 ? `[short ${tool}]` : null)),
    ...(opts.limits ? { limits: opts.limits } : {}),
    ...(retrieve ? { retrieve } : {}),
    ...(opts.maxInboundBytes ? { maxInboundBytes: opts.maxInboundBytes } : {}),
    ...(opts.maxUpstreamBytes ? { maxUpstreamBytes: opts.maxUpstreamBytes } : {}),
  });
  const lines = (stream: PassThrough) => {
    const got: string[] = [];
    let buf = "";
    stream.on("data", (c: Buffer) => {
      buf += c.toString("utf8");
      let nl = buf.indexOf("\n");
      while (nl !== -1) {
        got.push(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        nl = buf.indexOf("\n");
      }
    });
    return got;
  };
  const toClient = lines(clientOut);
  const toServer = lines(serverIn);
  const settle = () => new Promise((r) => setTimeout(r, 20));
  return { clientIn, clientOut, serverIn, serverOut, toClient, toServer, proxy, ccr, settle };
}
