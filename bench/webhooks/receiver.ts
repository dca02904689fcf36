/**
 * The bench's receiver, in its own process so it does not share the sender's event loop: answers
 * 200 to every POST and reports `<event id> <arrival ms>` lines to its parent on demand.
 */
import http from 'node:http';

const arrivals: string[] = [];
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = performance.timeOrigin + performance.now();
    const id = req.headers['service-event-id'];
    arrivals.push(`${id} ${at.toFixed(3)}`);
    res.writeHead(200).end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.send!({ port: address.port });
});
process.on('message', (message: { type: string }) => {
  if (message.type === 'drain') process.send!({ arrivals: arrivals.splice(0) });
  if (message.type === 'stop') server.close(() => process.exit(0));
});
