// Seed tool: converts between units of length, mass, temperature and data size.
const LINEAR = {
  length: { m: 1, km: 1000, cm: 0.01, mm: 0.001, mi: 1609.344, yd: 0.9144, ft: 0.3048, in: 0.0254 },
  mass: { kg: 1, g: 0.001, mg: 0.000001, lb: 0.45359237, oz: 0.028349523125, t: 1000 },
  data: { B: 1, KB: 1000, MB: 1e6, GB: 1e9, KiB: 1024, MiB: 1048576, GiB: 1073741824 },
};
const TEMPERATURE = {
  C: { toK: (v) => v + 273.15, fromK: (k) => k - 273.15 },
  F: { toK: (v) => ((v - 32) * 5) / 9 + 273.15, fromK: (k) => ((k - 273.15) * 9) / 5 + 32 },
  K: { toK: (v) => v, fromK: (k) => k },
};

export default {
  async fetch(request) {
    const { value, from, to } = await request.json();
    if (from in TEMPERATURE && to in TEMPERATURE) {
      const result = TEMPERATURE[to].fromK(TEMPERATURE[from].toK(value));
      return Response.json({ value: Math.round(result * 1e6) / 1e6, unit: to, kind: "temperature" });
    }
    for (const [kind, units] of Object.entries(LINEAR)) {
      if (from in units && to in units) {
        const result = (value * units[from]) / units[to];
        return Response.json({ value: Math.round(result * 1e9) / 1e9, unit: to, kind });
      }
    }
    return Response.json({ error: { message: `cannot convert ${from} to ${to}: not units of the same kind` } }, { status: 422 });
  },
};
