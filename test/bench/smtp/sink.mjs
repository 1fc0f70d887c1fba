// The SMTP sink of `npm run bench:smtp`, in its own process so it never shares an event loop with a client:
// smtp-server on 127.0.0.1 (PIPELINING, no AUTH, no TLS) that counts messages and throws them away.
// Talks to its parent over IPC: sends { port } once listening; answers { count: true } with { count }.
import { SMTPServer } from 'smtp-server';

let count = 0;
const server = new SMTPServer({
  logger: false,
  authOptional: true,
  disabledCommands: ['AUTH', 'STARTTLS'],
  size: 10 * 1024 * 1024,
  maxClients: 100,
  onData(stream, _session, callback) {
    stream.on('data', () => {});
    stream.on('end', () => {
      count++;
      callback(null, 'Ok');
    });
  },
});
server.on('error', (err) => console.error('sink:', err.message));
server.listen(0, '127.0.0.1', () => process.send({ port: server.server.address().port }));
process.on('message', (msg) => {
  if (msg?.count) process.send({ count });
  if (msg?.stop) server.close(() => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
