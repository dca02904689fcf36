import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo, Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Abi,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hex,
  http,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

/** The chain id of the local chain (anvil's default). */
export const LOCAL_CHAIN_ID = 31337;

/**
 * The test token (test/fixtures/chain/TestUsd.sol) compiled now with solc-js from the npm registry
 * (the compiler ships inside the package: nothing is downloaded at run time).
 */
let compiled: { abi: Abi; bytecode: Hex } | null = null;
export function compileTestToken(): { abi: Abi; bytecode: Hex } {
  if (compiled) return compiled;
  const solc = require('solc') as { compile(input: string): string };
  const source = readFileSync(join(here, '../fixtures/chain/TestUsd.sol'), 'utf8');
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources: { 'TestUsd.sol': { content: source } },
        settings: {
          optimizer: { enabled: true, runs: 200 },
          outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
        },
      }),
    ),
  );
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error');
  if (errors.length > 0) throw new Error(`solc: ${JSON.stringify(errors)}`);
  const contract = output.contracts['TestUsd.sol'].TestUsd;
  compiled = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  return compiled;
}

/** anvil's binary from its per-platform npm package (`@foundry-rs/anvil` installs it). */
function anvilBinary(): string {
  const platform = { linux: 'linux', darwin: 'darwin', win32: 'win32' }[process.platform as string];
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch as string];
  try {
    const pkg = require.resolve(`@foundry-rs/anvil-${platform}-${arch}/package.json`);
    const binary = join(dirname(pkg), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
    if (existsSync(binary)) return binary;
  } catch {}
  throw new Error('anvil is not installed: npm install (devDependency @foundry-rs/anvil)');
}

/** A local anvil on a loopback port of its own choosing; it is the real JSON-RPC server. */
export async function startAnvil(): Promise<{ url: string; process: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(
    anvilBinary(),
    ['--host', '127.0.0.1', '--port', '0', '--chain-id', String(LOCAL_CHAIN_ID)],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`anvil did not start: ${output}`)), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Listening on (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(`http://${match[1]}`);
      }
    });
    child.on('exit', (code) => reject(new Error(`anvil exited (${code}): ${output}`)));
  });
  child.stdout!.resume();
  child.stderr!.resume();
  return {
    url,
    process: child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * An HTTP proxy in front of the chain's JSON-RPC server: the endpoint Purser is given. `cut()` is
 * an outage (every connection is reset), `restore()` ends it; `drop(method)` resets only requests
 * calling that method (a broadcast lost on its way).
 */
export class RpcProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private down = false;
  private dropped = new Set<string>();
  /** JSON-RPC methods that reached the chain through the proxy, in order. */
  readonly calls: string[] = [];
  url = '';

  constructor(private readonly target: string) {}

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks);
        const methods = rpcMethods(body);
        if (this.down || methods.some((m) => this.dropped.has(m))) {
          request.socket.destroy();
          return;
        }
        this.calls.push(...methods);
        const target = new URL(this.target);
        const upstream = httpRequest(
          {
            host: target.hostname,
            port: target.port,
            method: 'POST',
            path: '/',
            // A connection of its own per call: no pooled one the chain may have closed to go stale.
            agent: false,
            headers: { 'content-type': 'application/json', 'content-length': body.length },
          },
          (answer: IncomingMessage) => {
            response.writeHead(answer.statusCode ?? 502, { 'content-type': 'application/json' });
            answer.pipe(response);
          },
        );
        upstream.on('error', () => request.socket.destroy());
        upstream.end(body);
      });
    });
    // Purser's client keeps idle connections for 4 s; a proxy that closed them first (Node's default
    // is 5 s) could close one just as the client, late on a busy machine, sends its next call on it:
    // "fetch failed" with no retry. Idle connections are the client's to close.
    this.server.keepAliveTimeout = 0;
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      if (this.down) socket.destroy();
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  cut(): void {
    this.down = true;
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): void {
    this.down = false;
  }

  drop(method: string | null): void {
    this.dropped = new Set(method ? [method] : []);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

function rpcMethods(body: Buffer): string[] {
  try {
    const parsed = JSON.parse(body.toString('utf8'));
    return (Array.isArray(parsed) ? parsed : [parsed]).map((call: { method?: string }) =>
      String(call.method),
    );
  } catch {
    return [];
  }
}

export interface LocalChain {
  /** The proxy's address: what Purser is configured with (`CHAIN_RPC_URL`). */
  rpcUrl: string;
  proxy: RpcProxy;
  token: `0x${string}`;
  /** The environment that points Purser at this chain, with a fresh pool secret. */
  env(extra?: Record<string, string>): Record<string, string>;
  /** Mints to `to` from nothing (a `Transfer` from the zero address), mined at once. */
  mint(to: string, units: bigint): Promise<Hex>;
  /** A customer's transfer of `units` to each address, in one transaction (one log each). */
  send(to: string[], units: bigint[]): Promise<Hex>;
  setBlocked(address: string, blocked: boolean): Promise<void>;
  balanceOf(address: string): Promise<bigint>;
  /** Native coin (wei) the address holds. */
  nativeBalance(address: string): Promise<bigint>;
  /** Mines `blocks` blocks (with what waits in the pool when automining is off). */
  mine(blocks?: number): Promise<void>;
  /** Automining (on by default): each transaction mined as it arrives; off, they wait in the pool. */
  automine(on: boolean): Promise<void>;
  blockNumber(): Promise<bigint>;
  receipt(hash: string): Promise<{ status: 'success' | 'reverted'; from: string; to: string | null }>;
  /** How many transactions this address has sent (its mined nonce). */
  nonce(address: string): Promise<number>;
  /** Gives this address native coin for gas. */
  fundGas(address: string): Promise<void>;
  close(): Promise<void>;
}

/** anvil, a proxy in front of it, and the test token deployed by a fresh key that also mints. */
export async function startLocalChain(): Promise<LocalChain> {
  const anvil = await startAnvil();
  const proxy = await new RpcProxy(anvil.url).start();
  const chain = defineChain({
    id: LOCAL_CHAIN_ID,
    name: 'anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [anvil.url] } },
  });
  // The test talks to anvil directly: an outage of the proxy is Purser's, not the test's.
  const transport = http(anvil.url, { retryCount: 0 });
  const owner = privateKeyToAccount(generatePrivateKey());
  const publicClient = createPublicClient({ chain, transport });
  const testClient = createTestClient({ chain, transport, mode: 'anvil' });
  const wallet = createWalletClient({ chain, transport, account: owner });
  await testClient.setBalance({ address: owner.address, value: 10n ** 21n });
  const { abi, bytecode } = compileTestToken();
  const deployed = await publicClient.waitForTransactionReceipt({
    hash: await wallet.deployContract({ abi, bytecode }),
  });
  const token = deployed.contractAddress!.toLowerCase() as `0x${string}`;
  const write = async (functionName: string, args: unknown[]) => {
    const hash = await wallet.writeContract({ address: token, abi, functionName, args });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`${functionName} reverted`);
    return hash;
  };
  return {
    rpcUrl: proxy.url,
    proxy,
    token,
    env: (extra = {}) => ({
      CHAIN: 'evm',
      CHAIN_RPC_URL: proxy.url,
      CHAIN_ID: String(LOCAL_CHAIN_ID),
      STABLECOIN_ADDRESS: token,
      CHAIN_POOL_KEY: generatePrivateKey(),
      CHAIN_START_BLOCK: '0',
      ...extra,
    }),
    mint: (to, units) => write('mint', [getAddress(to), units]),
    async send(to, units) {
      const total = units.reduce((a, b) => a + b, 0n);
      await write('mint', [owner.address, total]);
      return write('transferMany', [to.map((a) => getAddress(a)), units]);
    },
    async setBlocked(address, blocked) {
      await write('setBlocked', [getAddress(address), blocked]);
    },
    balanceOf: (address) =>
      publicClient.readContract({
        address: token,
        abi,
        functionName: 'balanceOf',
        args: [getAddress(address)],
      }) as Promise<bigint>,
    nativeBalance: (address) => publicClient.getBalance({ address: getAddress(address) }),
    mine: (blocks = 1) => testClient.mine({ blocks }),
    automine: (on) => testClient.setAutomine(on),
    blockNumber: () => publicClient.getBlockNumber({ cacheTime: 0 }),
    async receipt(hash) {
      const receipt = await publicClient.getTransactionReceipt({ hash: hash as Hex });
      return { status: receipt.status, from: receipt.from, to: receipt.to };
    },
    nonce: (address) => publicClient.getTransactionCount({ address: getAddress(address) }),
    fundGas: (address) => testClient.setBalance({ address: getAddress(address), value: 10n ** 20n }),
    async close() {
      await proxy.close();
      await anvil.stop();
    },
  };
}
