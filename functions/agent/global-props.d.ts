// Tells the Workers types what the main module exports, so `exports.default` (ctx.exports,
// and the test pool's loopback) is typed. Newer `wrangler types` generates this.
declare namespace Cloudflare {
  interface GlobalProps {
    mainModule: typeof import("./index.ts");
  }
}
