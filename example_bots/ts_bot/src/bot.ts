// A Bullring bot in TypeScript: serves bullring.v1.Bot and grpc.health.v1 over gRPC.
//
// The referee starts it with BULLRING_LISTEN set to where it must listen ("unix:PATH" or
// "host:port"); `--listen ADDRESS` overrides it. The .proto files are loaded at run time:
// the bot protocol from the repository's proto/ folder (BULLRING_PROTO overrides the path),
// the standard health protocol from this bot's own proto/ folder.

import * as path from "path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { choose, Option, View } from "./strategy";

const NAME = "ts_bot";
const VERSION = "1.0.0";
const AUTHOR = "Bullring examples";
const PROTOCOL_VERSION = 1;

const HERE = path.resolve(__dirname, "..");
const BOT_PROTO =
  process.env.BULLRING_PROTO ?? path.resolve(HERE, "..", "..", "proto", "bullring", "v1", "bot.proto");
const HEALTH_PROTO = path.resolve(HERE, "proto", "health.proto");

const LOAD_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: String,
  enums: Number,
  defaults: true,
  arrays: true,
  oneofs: true,
};

interface DecideRequest {
  match_id: string;
  decision_index: number;
  kind: number;
  view: View;
  options: Option[];
  deadline_ms: number;
  seat: number;
}

function listenAddress(): string {
  const flag = process.argv.indexOf("--listen");
  if (flag >= 0 && process.argv[flag + 1]) return process.argv[flag + 1];
  return process.env.BULLRING_LISTEN ?? "127.0.0.1:50051";
}

function loadService(file: string, pkg: string[], service: string): grpc.ServiceDefinition {
  const definition = protoLoader.loadSync(file, LOAD_OPTIONS);
  let node: unknown = grpc.loadPackageDefinition(definition);
  for (const part of pkg) node = (node as Record<string, unknown>)[part];
  const ctor = (node as Record<string, { service: grpc.ServiceDefinition }>)[service];
  return ctor.service;
}

type Unary = grpc.handleUnaryCall<unknown, unknown>;

function decide(request: DecideRequest): number {
  try {
    return choose(request.kind, request.view, request.options);
  } catch (error) {
    // A bug in the rules must not cost the match: fall back to the first option.
    console.error(`decide failed: ${String(error)}`);
    return 0;
  }
}

function botHandlers(): grpc.UntypedServiceImplementation {
  return {
    Hello: ((_call, callback) =>
      callback(null, {
        name: NAME,
        version: VERSION,
        protocol_version: PROTOCOL_VERSION,
        variants: [],
        author: AUTHOR,
        decide_stream: true, // the referee may send a match's decisions on one stream
      })) as Unary,
    StartMatch: ((_call, callback) => callback(null, {})) as Unary,
    Decide: ((call, callback) => {
      const request = call.request as DecideRequest;
      callback(null, { option_index: decide(request), decision_index: request.decision_index });
    }) as Unary,
    // The same decisions on one stream per match and seat: a reply for each request, in
    // order, naming the request it answers (the referee requires it on a stream).
    DecideStream: ((call: grpc.ServerDuplexStream<unknown, unknown>) => {
      call.on("data", (data: unknown) => {
        const request = data as DecideRequest;
        call.write({ option_index: decide(request), decision_index: request.decision_index });
      });
      call.on("end", () => call.end());
    }) as grpc.handleBidiStreamingCall<unknown, unknown>,
    EndMatch: ((_call, callback) => callback(null, {})) as Unary,
  };
}

const SERVING = 1;

function healthHandlers(): grpc.UntypedServiceImplementation {
  return {
    Check: ((_call, callback) => callback(null, { status: SERVING })) as Unary,
    Watch: ((call: grpc.ServerWritableStream<unknown, unknown>) => {
      call.write({ status: SERVING });
    }) as grpc.handleServerStreamingCall<unknown, unknown>,
  };
}

function main(): void {
  const server = new grpc.Server();
  server.addService(loadService(BOT_PROTO, ["bullring", "v1"], "Bot"), botHandlers());
  server.addService(loadService(HEALTH_PROTO, ["grpc", "health", "v1"], "Health"), healthHandlers());
  const address = listenAddress();
  server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (error, port) => {
    if (error) {
      console.error(`cannot listen on ${address}: ${error.message}`);
      process.exit(1);
    }
    console.error(`${NAME} ${VERSION} listening on ${address}${port ? ` (port ${port})` : ""}`);
  });
  const stop = (): void => {
    server.tryShutdown(() => process.exit(0));
    setTimeout(() => process.exit(0), 1000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main();
