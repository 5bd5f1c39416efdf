import net from "node:net";

/**
 * SMTP servers that fail as real ones do, for the mail fault tests: nobody
 * listening (connection refused) and one that takes the connection and never
 * says a word. (A server that answers 5xx is the catcher's `refuse`.)
 */

/** An smtp:// URL whose port nothing listens on: every connection is refused. */
export async function downSmtpUrl(): Promise<string> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return `smtp://127.0.0.1:${port}`;
}

export type HangingSmtpServer = { url: string; connections: () => number; close: () => Promise<void> };

/** Accepts every TCP connection and never sends the greeting: only the mailer's own timeouts end the wait. */
export async function startHangingSmtpServer(): Promise<HangingSmtpServer> {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    connections: () => connections,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
