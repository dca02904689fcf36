import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a real server (PostgreSQL, Redis) that a test cuts and restores, as a
 * network or a server restart would:
 * - `reset`: every connection dropped, new ones closed as soon as they open (a server restarting);
 * - `silent`: every connection dropped, new ones accepted but never answered (an unreachable address:
 *   clients wait for their own timeouts);
 * - `freeze`: nothing passes any more, open connections included, which stay open (a partition).
 * `restore` drops what the cut left open and lets new connections through again.
 */
export class TcpProxy {
  private readonly open = new Set<Socket>();
  private mode: 'pass' | 'reset' | 'silent' | 'freeze' = 'pass';

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
    let proxy: TcpProxy | undefined;
    const server = createServer((client) => proxy?.accept(client, targetPort, targetHost));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new TcpProxy(server, (server.address() as { port: number }).port);
    return proxy;
  }

  /** A URL's host and port replaced by the proxy's. */
  url(target: string): string {
    const url = new URL(target);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  cut(mode: 'reset' | 'silent' | 'freeze' = 'reset'): void {
    this.mode = mode;
    if (mode !== 'freeze') this.dropAll();
  }

  restore(): void {
    if (this.mode !== 'pass') this.dropAll();
    this.mode = 'pass';
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private dropAll(): void {
    for (const socket of this.open) socket.destroy();
    this.open.clear();
  }

  private accept(client: Socket, port: number, host: string): void {
    client.on('error', () => {});
    if (this.mode === 'reset') {
      client.resetAndDestroy();
      return;
    }
    this.open.add(client);
    client.on('close', () => this.open.delete(client));
    if (this.mode !== 'pass') return;
    const upstream = createConnection({ port, host });
    this.open.add(upstream);
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => {
      this.open.delete(upstream);
      client.destroy();
    });
    client.on('close', () => upstream.destroy());
    // Forwarded only while passing: a frozen link swallows what either side sends.
    client.on('data', (chunk) => this.mode === 'pass' && upstream.write(chunk));
    upstream.on('data', (chunk) => this.mode === 'pass' && client.write(chunk));
  }
}
