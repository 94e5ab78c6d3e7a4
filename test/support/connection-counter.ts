import net from 'node:net';

/** A loopback port that counts the TCP connections it accepts: a refusal by the outbound guard must leave it at 0. */
export async function connectionCounter(): Promise<{ port: number; url: string; connections: () => number; stop(): Promise<void> }> {
  let count = 0;
  const server = net.createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    connections: () => count,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
