// Seed tool: picks and renames fields of JSON records by dotted paths.
function pick(value, path) {
  let current = value;
  for (const part of path.split(".")) {
    if (current === null || typeof current !== "object") return null;
    current = Array.isArray(current) ? current[Number(part)] : current[part];
  }
  return current === undefined ? null : current;
}

export default {
  async fetch(request) {
    const { data, fields } = await request.json();
    const records = Array.isArray(data) ? data : [data];
    const result = records.map((record) => {
      const out = {};
      for (const [name, path] of Object.entries(fields)) out[name] = pick(record, path);
      return out;
    });
    return Response.json({ records: result, count: result.length });
  },
};
