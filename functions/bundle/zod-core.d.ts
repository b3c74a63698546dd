// zod-core.js has zod's own types: it mirrors zod/v4/core (only what the Worker never runs differs).
export * from "zod/v4/core";
