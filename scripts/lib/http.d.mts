export declare function requestWithHost(
  port: number,
  host: string,
  method: string,
  urlPath: string,
  options?: { headers?: Record<string, string>; json?: unknown; timeoutMs?: number },
): Promise<{ status: number; body: string }>;
export declare function getWithHost(port: number, host: string, urlPath: string, timeoutMs?: number): Promise<{ status: number; body: string }>;
export declare function waitForServer(options: {
  port: number;
  host: string;
  path?: string;
  timeoutMs?: number;
  child?: import('node:child_process').ChildProcess;
}): Promise<void>;
export declare function portIsFree(port: number): Promise<boolean>;
export declare function freePort(preferred: number): Promise<number>;
