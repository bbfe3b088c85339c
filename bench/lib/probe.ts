// A health monitor in its own process: GET /healthz every `intervalMs` until told to stop (SIGTERM), then prints the latencies (ms) as JSON.
const [url, intervalMs = '20', client = '192.0.2.200'] = process.argv.slice(2);
const latencies: number[] = [];
let stopping = false;
process.on('SIGTERM', () => (stopping = true));
while (!stopping) {
  const t0 = performance.now();
  const res = await fetch(`${url}/healthz`, { headers: { 'x-forwarded-for': client } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`/healthz answered ${res.status}`);
  latencies.push(performance.now() - t0);
  await new Promise((r) => setTimeout(r, Number(intervalMs)));
}
process.stdout.write(JSON.stringify(latencies));
