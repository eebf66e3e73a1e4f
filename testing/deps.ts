/**
 * The tests' own dependencies, pinned here by full specifier (not in `deno.json`'s import
 * map, whose npm packages Deno would install for every program, the players' `deno task
 * play` included): `@std/assert` and `fast-check`.
 *
 * @module
 */
export * from "jsr:@std/assert@^1.0.19";
export { default as fc } from "npm:fast-check@^4.10.2";
