/**
 * The server's modules: `ws` for its WebSockets, and `effect/http` and `effect/socket`, at the same version as
 * `core/deps.ts` (their API is marked unstable in effect 4.1; the same specifier as the core, so one copy of effect is loaded).
 * Only the server imports them, so the core and its workers do not load them.
 *
 * @module
 */
// First, before Effect loads (see the module).
import "../core/no_async_context.ts";
export { HttpRouter, HttpServerRequest, HttpServerResponse } from "npm:effect@4.1.0/http";
export { Socket } from "npm:effect@4.1.0/socket";
export * as FiberMap from "npm:effect@4.1.0/FiberMap";
export * as FiberSet from "npm:effect@4.1.0/FiberSet";
// The WebSockets' transport (server/transport.ts): a frame over the limit refused from its
// header, which Deno.upgradeWebSocket cannot do.
export { WebSocketServer } from "npm:ws@8.23.1";
