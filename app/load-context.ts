declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The Content-Security-Policy nonce of this response (server.js). */
    cspNonce: string;
    /** The client's address, as Express sees it under TRUST_PROXY. */
    clientIp: string;
    /**
     * Resolves once the response has sent what it holds (at once, unless the client is behind), or the client
     * has gone. Remix writes a streamed body as fast as it is read, so a long body reads no faster than this.
     */
    untilDrained?: () => Promise<void>;
  }
}

export {};
