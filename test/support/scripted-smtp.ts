// Hand-scripted SMTP servers for what a well-behaved server library will not do on request:
//   silent          accepts the TCP connection and never greets (timeouts)
//   dropMidData     says 354 to DATA, then drops the connection when the content starts arriving
//   lockstep        offers no PIPELINING and counts every command sent before the previous reply (violations)
//   closeAfterFirst takes one message per connection, then answers the next MAIL with 421 and hangs up
//   slowFinal       never answers the end of the message content (data timeout)
import net from 'node:net';
import type { Mailbox, RunningServer } from './smtp-servers';

export type Script = 'silent' | 'dropMidData' | 'lockstep' | 'closeAfterFirst' | 'slowFinal';

/** Starts one scripted server recording into `mailbox` under `script`. */
export async function startScriptedSmtp(script: Script, mailbox: Mailbox): Promise<RunningServer> {
  const sockets = new Set<net.Socket>();
  let connectionCount = 0;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    const stat = mailbox.stat(script);
    stat.connections++;
    const connection = `${script}-${++connectionCount}`;
    if (script === 'silent') return;
    const reply = (text: string) => socket.write(`${text}\r\n`);
    reply(`220 scripted.test ESMTP ${script}`);
    let buffer = '';
    let inData = false;
    let data = '';
    let from = '';
    let to: string[] = [];
    let ehlo = '';
    let delivered = 0;
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      if (inData && script === 'dropMidData') {
        socket.destroy();
        return;
      }
      // In lockstep a client may only send the next command after it read our reply to the last one.
      const complete = buffer.split('\r\n').length - 1;
      if (script === 'lockstep' && !inData && complete > 1) stat.violations++;
      for (;;) {
        if (inData) {
          data += buffer;
          buffer = '';
          let bodyEnd: number;
          let next: number;
          if (data.startsWith('.\r\n')) {
            bodyEnd = 0;
            next = 3;
          } else {
            const at = data.indexOf('\r\n.\r\n');
            if (at < 0) return;
            bodyEnd = at + 2;
            next = at + 5;
          }
          // Undo dot-stuffing: a line that starts with "." had one added by the client.
          const body = data.slice(0, bodyEnd).replace(/(^|\r\n)\./g, '$1');
          buffer = data.slice(next);
          data = '';
          inData = false;
          if (script === 'lockstep' && buffer.length > 0) stat.violations++;
          if (script === 'slowFinal') return;
          mailbox.mail.push({ server: script, from, to, raw: body, connection, transaction: ++delivered, ehlo, secure: false, user: null });
          reply(`250 2.0.0 Ok: queued as ${script}-${mailbox.mail.length}`);
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.split(' ')[0].toUpperCase();
        switch (verb) {
          case 'EHLO':
            ehlo = line.slice(5).trim();
            reply(script === 'lockstep' ? '250-scripted.test\r\n250 8BITMIME' : '250-scripted.test\r\n250-PIPELINING\r\n250 8BITMIME');
            break;
          case 'HELO':
            ehlo = line.slice(5).trim();
            reply('250 scripted.test');
            break;
          case 'MAIL':
            if (script === 'closeAfterFirst' && delivered >= 1) {
              reply('421 4.7.0 One message per connection, closing');
              socket.end();
              return;
            }
            from = /<([^>]*)>/.exec(line)?.[1] ?? '';
            to = [];
            reply('250 2.1.0 Ok');
            break;
          case 'RCPT':
            to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
            reply('250 2.1.5 Ok');
            break;
          case 'DATA':
            inData = true;
            data = '';
            reply('354 End data with <CR><LF>.<CR><LF>');
            if (script === 'dropMidData' && buffer.length > 0) {
              socket.destroy();
              return;
            }
            break;
          case 'RSET':
            from = '';
            to = [];
            reply('250 2.0.0 Ok');
            break;
          case 'NOOP':
            reply('250 2.0.0 Ok');
            break;
          case 'QUIT':
            stat.quits++;
            reply('221 2.0.0 Bye');
            socket.end();
            return;
          default:
            reply('502 5.5.2 Command not recognized');
        }
      }
    });
  });
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
