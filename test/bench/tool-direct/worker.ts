// The unit converter itself, as its own Worker: the direct call select_tool is compared with.
import tool from "../../../functions/tool-agent/seed-tools/unit_convert.js";

export default { fetch: (request: Request) => tool.fetch(request) };
