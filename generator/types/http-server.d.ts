/** The part of http-server 14's programmatic API this project uses (its own package ships no types). */
declare module 'http-server' {
  import type { IncomingMessage, Server, ServerResponse } from 'node:http';

  export interface HttpServerOptions {
    root?: string;
    before?: Array<(req: IncomingMessage, res: ServerResponse) => void>;
    /** only the string 'false' turns listings off */
    showDir?: 'true' | 'false';
    autoIndex?: 'true' | 'false';
    cache?: number | string;
    gzip?: boolean;
    brotli?: boolean;
    cors?: boolean;
    headers?: Record<string, string>;
  }

  export interface HttpServer {
    /** the underlying Node server */
    server: Server;
    listen(port: number, host: string, callback: () => void): void;
  }

  const httpServer: { createServer(options: HttpServerOptions): HttpServer };
  export default httpServer;
}
