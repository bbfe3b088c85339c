import { request, WebSocket } from 'undici';

/** process.memoryUsage() of the inspected process, in MiB. */
export interface MemoryMiB {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

/**
 * A DevTools-protocol session with a server started with `--inspect`: the soak and bench:import
 * use it to force a full garbage collection in the server and read what is still live, which is
 * how a leak, or what the data really costs, is told apart from garbage not yet collected.
 */
export class InspectorSession {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  private constructor(private readonly ws: WebSocket) {
    ws.addEventListener('message', (event) => {
      const msg = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
      const waiter = msg.id === undefined ? undefined : this.pending.get(msg.id);
      if (!waiter) return;
      this.pending.delete(msg.id!);
      if (msg.error) waiter.reject(new Error(msg.error.message));
      else waiter.resolve(msg.result);
    });
  }

  static async connect(inspectPort: number): Promise<InspectorSession> {
    const res = await request(`http://127.0.0.1:${inspectPort}/json/list`);
    const [target] = (await res.body.json()) as { webSocketDebuggerUrl: string }[];
    const ws = new WebSocket(target!.webSocketDebuggerUrl);
    await new Promise<void>((resolve, reject) => {
      ws.addEventListener('open', () => resolve(), { once: true });
      ws.addEventListener('error', () => reject(new Error('inspector connection failed')), { once: true });
    });
    return new InspectorSession(ws);
  }

  private send(method: string, params: object = {}): Promise<unknown> {
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  async memory(): Promise<MemoryMiB> {
    const { result } = (await this.send('Runtime.evaluate', { expression: 'process.memoryUsage()', returnByValue: true })) as {
      result: { value: Record<keyof MemoryMiB, number> };
    };
    const v = result.value;
    const mib = (b: number) => b / 2 ** 20;
    return { rss: mib(v.rss), heapTotal: mib(v.heapTotal), heapUsed: mib(v.heapUsed), external: mib(v.external), arrayBuffers: mib(v.arrayBuffers) };
  }

  /** Full collection in the server, then its memory: heapUsed is now what is live. */
  async memoryAfterGc(): Promise<MemoryMiB> {
    await this.send('HeapProfiler.collectGarbage');
    return this.memory();
  }

  close(): void {
    this.ws.close();
  }
}
