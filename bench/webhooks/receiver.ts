/**
 * The bench's receiver, in its own process so it does not share the sender's event loop: answers
 * 200 to every POST and reports `<event id> <acknowledged ms>` lines to its parent on demand.
 */
import http from 'node:http';

const arrivals: string[] = [];
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const id = req.headers['service-event-id'];
    // Counted once acknowledged: the 200 is written.
    res.writeHead(200).end(() => {
      arrivals.push(`${id} ${(performance.timeOrigin + performance.now()).toFixed(3)}`);
    });
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
