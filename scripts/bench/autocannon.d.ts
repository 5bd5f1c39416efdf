// The few parts of autocannon's API the benchmark uses (the package ships no types).
declare module "autocannon" {
  type Histogram = { average: number; mean: number; p50: number; p90: number; p97_5: number; p99: number; max: number };
  export type Result = {
    requests: Histogram & { total: number };
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
    statusCodeStats: Record<string, { count: number }>;
  };
  export type Options = {
    url: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    amount?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    timeout?: number;
    expectBody?: string;
    /** Each connection goes through these in turn, over and over (the soak's mixed traffic). */
    requests?: Request[];
  };
  export type Request = {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Changes the request before each send (fresh values); must return it. */
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
    onResponse?: (
      status: number,
      body: string,
      context: Record<string, unknown>,
      headers: Record<string, string>,
    ) => void;
  };
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
