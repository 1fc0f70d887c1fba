// The SMTP sink of `npm run bench:smtp`, in its own process so it never shares an event loop with a client:
// smtp-server on 127.0.0.1 (PIPELINING, no AUTH, no TLS) that counts messages and throws them away.
// Talks to its parent over IPC: sends { port } once listening; answers { count: true } with { count, tagged }.
// Started with `--record <Header-Name>` it also keeps, for each message, the moment it accepted it (epoch ms,
// sub-millisecond: performance.timeOrigin + performance.now(), comparable with the parent's) and that header's value
// (null when the message has none); `tagged` counts the messages that had it, and { records: <from> } answers
// { records: [[at, value], ...] } from that index on (bench:transactional matches each message to its API call).
import { SMTPServer } from 'smtp-server';

const recordAt = process.argv.indexOf('--record');
const recordHeader = recordAt > 0 ? process.argv[recordAt + 1] : null;
const headerPattern = recordHeader ? new RegExp(`^${recordHeader}:[ \\t]*(\\S+)`, 'im') : null;
/** How much of a message is searched for the header: its header block, which ends at the first blank line. */
const HEADER_BYTES = 64 * 1024;

let count = 0;
let tagged = 0;
const records = [];
const server = new SMTPServer({
  logger: false,
  authOptional: true,
  disabledCommands: ['AUTH', 'STARTTLS'],
  size: 10 * 1024 * 1024,
  maxClients: 100,
  onData(stream, _session, callback) {
    let head = headerPattern ? '' : null;
    stream.on('data', (chunk) => {
      if (head !== null && head.length < HEADER_BYTES && !head.includes('\r\n\r\n')) head += chunk.toString('latin1');
    });
    stream.on('end', () => {
      count++;
      if (head !== null) {
        const value = headerPattern.exec(head.split('\r\n\r\n', 1)[0])?.[1] ?? null;
        if (value !== null) tagged++;
        records.push([performance.timeOrigin + performance.now(), value]);
      }
      callback(null, 'Ok');
    });
  },
});
server.on('error', (err) => console.error('sink:', err.message));
server.listen(0, '127.0.0.1', () => process.send({ port: server.server.address().port }));
process.on('message', (msg) => {
  if (msg?.count) process.send({ count, tagged });
  if (msg?.records !== undefined) process.send({ records: records.slice(Number(msg.records) || 0) });
  if (msg?.stop) server.close(() => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
