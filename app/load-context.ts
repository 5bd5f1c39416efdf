declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The Content-Security-Policy nonce of this response (server.js). */
    cspNonce: string;
    /** The client's address, as Express sees it under TRUST_PROXY. */
    clientIp: string;
  }
}

export {};
