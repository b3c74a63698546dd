// Worker entry for the chat agent.
import { createApp } from "./app.ts";

export default createApp();
