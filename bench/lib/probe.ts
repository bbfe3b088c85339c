// A health monitor in its own process: GET /healthz every `intervalMs`, one line per answer (its latency in ms) on stdout, until killed.
const [url, intervalMs = '60', client = '192.0.2.200'] = process.argv.slice(2);
for (;;) {
  const t0 = performance.now();
  const res = await fetch(`${url}/healthz`, { headers: { 'x-forwarded-for': client } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`/healthz answered ${res.status}`);
  process.stdout.write(`${(performance.now() - t0).toFixed(3)}\n`);
  await new Promise((r) => setTimeout(r, Number(intervalMs)));
}
