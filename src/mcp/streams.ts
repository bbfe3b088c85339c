/** Resource subscriptions and the server-to-client streams (GET /mcp) their notifications go out on, driven by new revisions. */
import { PassThrough } from 'node:stream';
import type { LiveData } from '../snapshot/live-data.js';
import type { Snapshot } from '../snapshot/snapshot.js';

/** What a session's requests may do with its subscriptions. */
export interface SessionSubscriptions {
  /** False when the session already holds as many subscriptions as it may. */
  subscribe(uri: string, snap: Snapshot): boolean;
  unsubscribe(uri: string): void;
}

/** Resources one session may subscribe to at once: they are held in memory per session. */
export const MAX_SUBSCRIPTIONS = 32;
/** A comment line this often keeps proxies from closing an idle stream, and rechecks the session behind it. */
const KEEP_ALIVE_MS = 25_000;
/** A client that leaves this much of its stream unread is dropped rather than buffered for. */
const MAX_UNREAD_BYTES = 64 * 1024;

interface SessionState {
  uris: Set<string>;
  stream: PassThrough | null;
  /** When a request of the session last touched this state: a session without a stream is forgotten once idle. */
  touched: number;
}

export interface StreamsOptions {
  live: LiveData;
  baseUrl: () => string;
  /** Whether a session token is still live (not expired, idle or deleted on any replica). */
  alive: (token: string) => Promise<boolean>;
  /** How long a session may go unused (MCP_SESSION_IDLE_SECONDS), in ms. */
  idleMs: number;
}

/**
 * Per replica: each session's subscribed URIs and its open GET stream. When the store's revision
 * moves (LiveData polls it, and PostgreSQL's NOTIFY wakes it at once, whichever replica or CLI
 * imported), a subscribed resource whose content changed gets notifications/resources/updated on
 * the stream of each session subscribed to it here, and every stream gets
 * notifications/resources/list_changed when the set of reviews (so of review://{id}) changed.
 * Subscriptions live on the replica that took the subscribe request: a load balancer should keep
 * a session on one replica (affinity on Mcp-Session-Id) for its notifications to arrive.
 */
export class McpStreams {
  private readonly sessions = new Map<string, SessionState>();
  /** Each subscribed URI's content version (an ETag, or the review's JSON) as last seen, with how many sessions here hold it. */
  private readonly versions = new Map<string, { version: string; holders: number }>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly opts: StreamsOptions) {
    opts.live.on('snapshot', this.onSnapshot);
    this.timer = setInterval(() => void this.sweep(), KEEP_ALIVE_MS);
    this.timer.unref();
  }

  /** The subscriptions of the session with this token (asked for on each of its requests, so its state here counts as in use). */
  forSession(token: string): SessionSubscriptions {
    const known = this.sessions.get(token);
    if (known) known.touched = Date.now();
    return {
      subscribe: (uri, snap) => {
        const state = this.state(token);
        if (state.uris.has(uri)) return true;
        if (state.uris.size >= MAX_SUBSCRIPTIONS) return false;
        state.uris.add(uri);
        const held = this.versions.get(uri);
        if (held) held.holders++;
        else this.versions.set(uri, { version: this.versionOf(snap, uri), holders: 1 });
        return true;
      },
      unsubscribe: (uri) => {
        const state = this.sessions.get(token);
        if (!state?.uris.delete(uri)) return;
        state.touched = Date.now();
        this.release(uri);
        if (state.uris.size === 0 && state.stream === null) this.sessions.delete(token);
      },
    };
  }

  /** Opens the session's stream; null when it has one open here already (one stream per session, so no message goes out twice). */
  open(token: string): PassThrough | null {
    const state = this.state(token);
    if (state.stream) return null;
    const stream = new PassThrough();
    state.stream = stream;
    // The client went away (or the stream was ended here): the session keeps its subscriptions for a new stream.
    stream.on('close', () => {
      if (state.stream === stream) state.stream = null;
      state.touched = Date.now();
    });
    // A comment first, so the client has the headers and knows the stream is open.
    stream.write(': reviewcast stream open\n\n');
    return stream;
  }

  /** Ends the session here: its stream closes and its subscriptions go (DELETE /mcp). */
  forget(token: string): void {
    const state = this.sessions.get(token);
    if (!state) return;
    this.sessions.delete(token);
    for (const uri of state.uris) this.release(uri);
    state.stream?.end();
  }

  /** Ends every stream (the server is closing: an open response would keep it waiting). */
  close(): void {
    this.opts.live.off('snapshot', this.onSnapshot);
    clearInterval(this.timer);
    for (const token of [...this.sessions.keys()]) this.forget(token);
  }

  /** How many streams are open here. */
  get openStreams(): number {
    let n = 0;
    for (const s of this.sessions.values()) if (s.stream) n++;
    return n;
  }

  private state(token: string): SessionState {
    let state = this.sessions.get(token);
    if (!state) {
      state = { uris: new Set(), stream: null, touched: Date.now() };
      this.sessions.set(token, state);
    }
    state.touched = Date.now();
    return state;
  }

  private release(uri: string): void {
    const held = this.versions.get(uri);
    if (held && --held.holders === 0) this.versions.delete(uri);
  }

  /** What changes when the resource's content changes; reading a resource builds the same thing, so this costs no more. */
  private versionOf(snap: Snapshot, uri: string): string {
    const base = this.opts.baseUrl();
    if (uri === `${base}/reviews.json`) return snap.topic('/reviews.json', base).etag;
    if (uri === `${base}/insights.json`) return snap.insightsDocument().etag;
    const review = snap.review(uri.slice('review://'.length));
    return review ? JSON.stringify(review) : 'absent';
  }

  private readonly onSnapshot = (next: Snapshot, previous: Snapshot): void => {
    if (this.sessions.size === 0) return;
    const changed = new Set<string>();
    for (const [uri, held] of this.versions) {
      const version = this.versionOf(next, uri);
      if (version !== held.version) {
        held.version = version;
        changed.add(uri);
      }
    }
    const streams = [...this.sessions.values()].filter((s) => s.stream !== null);
    const listChanged = streams.length > 0 && !sameReviews(previous, next);
    for (const state of streams) {
      for (const uri of state.uris) if (changed.has(uri)) this.send(state, 'notifications/resources/updated', { uri });
      if (listChanged) this.send(state, 'notifications/resources/list_changed');
    }
  };

  private send(state: SessionState, method: string, params?: Record<string, unknown>): void {
    const stream = state.stream;
    if (!stream) return;
    if (stream.writableLength > MAX_UNREAD_BYTES) {
      stream.end();
      return;
    }
    stream.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method, ...(params ? { params } : {}) })}\n\n`);
  }

  /**
   * Every KEEP_ALIVE_MS: a comment on each open stream, whose session is checked (an open stream
   * is a session in use, so the check keeps it alive); state without a stream is forgotten once
   * its session would be idle.
   */
  private async sweep(): Promise<void> {
    const now = Date.now();
    for (const [token, state] of [...this.sessions]) {
      if (!state.stream) {
        if (now - state.touched > this.opts.idleMs) this.forget(token);
        continue;
      }
      const alive = await this.opts.alive(token).catch(() => true);
      if (!alive) this.forget(token);
      else state.stream?.write(': keep-alive\n\n');
    }
  }
}

/** Whether two snapshots hold the same reviews (by id): if not, the review://{id} resources changed. */
function sameReviews(a: Snapshot, b: Snapshot): boolean {
  return a.index.reviews.length === b.index.reviews.length && b.index.reviews.every((r) => a.review(r.id) !== undefined);
}
