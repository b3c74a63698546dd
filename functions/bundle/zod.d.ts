// zod.js has zod's own types: it mirrors zod/v4 (only what the Worker never runs differs).
export * from "zod/v4";
export { default } from "zod/v4";
