declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The Content-Security-Policy nonce of this response (server.js). */
    cspNonce: string;
    /** The client's address, as Express sees it under TRUST_PROXY. */
    clientIp: string;
    /**
     * Resolves true once the response has sent what it holds (at once, unless the client is behind), false
     * once the client has gone. Remix writes a streamed body as fast as it is read, and on after the client
     * has gone, so a long body reads no faster than this and stops when it says false.
     */
    untilWritable?: () => Promise<boolean>;
  }
}

export {};
