import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a real server (PostgreSQL, Redis) that a test cuts and restores, as a
 * network or a server restart would: `cut('reset')` drops every connection and refuses new ones
 * (they are closed as soon as they open); `cut('silent')` drops them and then accepts new ones that
 * never get an answer (an unreachable address: clients wait for their own timeouts).
 */
export class TcpProxy {
  private readonly open = new Set<Socket>();
  private mode: 'pass' | 'reset' | 'silent' = 'pass';

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

  cut(mode: 'reset' | 'silent' = 'reset'): void {
    this.mode = mode;
    for (const socket of this.open) socket.destroy();
    this.open.clear();
  }

  restore(): void {
    if (this.mode === 'silent') for (const socket of this.open) socket.destroy();
    this.open.clear();
    this.mode = 'pass';
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private accept(client: Socket, port: number, host: string): void {
    client.on('error', () => {});
    if (this.mode === 'reset') {
      client.resetAndDestroy();
      return;
    }
    this.open.add(client);
    client.on('close', () => this.open.delete(client));
    if (this.mode === 'silent') return;
    const upstream = createConnection({ port, host });
    this.open.add(upstream);
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => {
      this.open.delete(upstream);
      client.destroy();
    });
    client.on('close', () => upstream.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
