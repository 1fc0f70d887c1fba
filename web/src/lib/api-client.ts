import type { ErrorBody, ErrorCode } from '@shared/errors';
import { ApiError } from './api-error';
import { clearFieldErrorsStoredBefore, fieldErrorsMark, setFieldErrors, type JotaiStore } from './field-errors';
import { buildQueryString } from './query-string';
import { waitWhile } from './wait';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method?: HttpMethod;
  /** Path under the API base, e.g. '/tag'. */
  path?: string;
  /** A full URL instead of base + path (the configurable log endpoint). */
  url?: string;
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, string>;
  /** Guest call: no bearer, no 401 refresh, JSON content type. */
  guest?: boolean;
  /** Do not refresh and retry on 401 (logout). */
  noAuthRetry?: boolean;
  /** Run even while auth fetching or refreshing runs (the auth calls themselves). */
  bypassWait?: boolean;
  /** Never report this call's failure to the error log (the log call itself). */
  noLog?: boolean;
}

/** What the client needs from the session: the bearer, whether auth work is running, refresh and logout. */
export interface AuthController {
  isBusy(): boolean;
  authorization(): { header: string; value: string } | null;
  accessToken(): string | null;
  /** Gets a usable token after a 401 (refreshing unless another call already did); false when that failed. */
  renew(rejectedToken: string | null): Promise<boolean>;
  logout(): Promise<void>;
}

/** A 5xx answer, for the client error log. */
export interface ServerErrorReport {
  method: HttpMethod;
  url: string;
  status: number;
  code: string;
  message: string;
}

export interface ApiClientDeps {
  /** The API base at start; the server's runtime settings may move it (setBaseUrl). */
  baseUrl: string;
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  store: JotaiStore;
  appName: string;
  appVersion: string;
  deviceId: () => string;
  language: () => string;
  pollMs: number;
  /** Receives every response's x-version header. */
  onVersion?: (version: string | null) => void;
  onServerError?: (report: ServerErrorReport) => void;
}

interface InFlight {
  bodyText: string | undefined;
  promise: Promise<unknown>;
  /** The client's write count when the call was made (see ApiClient.writes). */
  writes: number;
}

const NO_AUTH: AuthController = {
  isBusy: () => false,
  authorization: () => null,
  accessToken: () => null,
  renew: async () => false,
  logout: async () => undefined,
};

/** One attempt of a call on the wire: given the headers (app, language, bearer), it answers the Response. */
type Transmit = (headers: Record<string, string>) => Promise<Response>;

/** Sends a request and answers a Response: fetch, or an XMLHttpRequest that reports upload progress. */
export type Transport = (url: string, init: RequestInit) => Promise<Response>;

/** A call whose body is a file or a form instead of JSON (uploads), or whose answer is a file (downloads). */
export interface TransferOptions {
  method?: 'GET' | 'POST';
  path: string;
  query?: Record<string, unknown>;
  /** Builds the body for each attempt (a retry after a 401 sends it again). */
  body?: () => BodyInit;
  /** Content-Type of the body; a FormData body leaves it to the browser (multipart boundary). */
  contentType?: string;
  /** How the request is sent (default fetch). */
  transport?: Transport;
}

/** The key 422 messages and in-flight requests are kept under: method plus full URL. */
export function requestKey(method: HttpMethod, url: string): string {
  return `${method} ${url}`;
}

/** The fetch wrapper every console call goes through (spec section 4 "Client session" and section 7 headers). */
export class ApiClient {
  private auth: AuthController = NO_AUTH;
  private readonly inFlight = new Map<string, InFlight>();
  /**
   * Goes up when a write (any method but GET) starts and again when it ends. A GET made after a write must not
   * share the answer of an identical GET sent before it: that answer may predate the write (a list refetched
   * after a change would show the old rows).
   */
  private writes = 0;
  private baseUrl: string;

  constructor(private readonly deps: ApiClientDeps) {
    this.baseUrl = deps.baseUrl;
  }

  /** Sends later calls to another API base (the runtime settings' api.baseUrl + api.path). */
  setBaseUrl(baseUrl: string): void {
    this.baseUrl = baseUrl;
  }

  /** Connects the session that provides bearer tokens, refresh and logout. */
  setAuth(auth: AuthController): void {
    this.auth = auth;
  }

  /** The full URL of a path under the API base, with the query string. */
  url(path: string, query?: Record<string, unknown>): string {
    return `${this.baseUrl}${path}${buildQueryString(query)}`;
  }

  /** The request key of a call, as forms use it to find their 422 messages. */
  keyOf(method: HttpMethod, path: string, query?: Record<string, unknown>): string {
    return requestKey(method, this.url(path, query));
  }

  /** Headers every call carries: X-DEVICE (app identity + fingerprint), X-APP, X-LANG. */
  baseHeaders(): Record<string, string> {
    return {
      Accept: 'application/json',
      'X-DEVICE': `${this.deps.appName}:${this.deps.deviceId()}`,
      'X-APP': `${this.deps.appName}/${this.deps.appVersion}`,
      'X-LANG': this.deps.language(),
    };
  }

  /**
   * Sends one call. Identical concurrent calls (same method, URL and body) share one promise, except a GET
   * made after a write started or ended since the running one was sent; any call that does not share waits
   * until the running one has finished, so only one runs per URL.
   */
  request<T>(options: RequestOptions): Promise<T> {
    const method = options.method ?? 'GET';
    const url = options.url ?? this.url(options.path ?? '', options.query);
    const key = requestKey(method, url);
    const bodyText = options.body === undefined ? undefined : JSON.stringify(options.body);
    const running = this.inFlight.get(key);
    const fresh = method !== 'GET' || running?.writes === this.writes;
    if (running && running.bodyText === bodyText && fresh) return running.promise as Promise<T>;

    const promise = (async () => {
      if (running) await running.promise.catch(() => undefined);
      const transmit: Transmit = (headers) => {
        if (options.guest || bodyText !== undefined) headers['Content-Type'] = 'application/json';
        return this.deps.fetch(url, { method, headers: { ...headers, ...options.headers }, body: bodyText });
      };
      return this.execute(method, url, key, options, transmit, (response) => readJson(response) as Promise<T>);
    })();
    const entry: InFlight = { bodyText, promise, writes: this.writes };
    this.inFlight.set(key, entry);
    const done = () => {
      if (this.inFlight.get(key) === entry) this.inFlight.delete(key);
    };
    promise.then(done, done);
    return promise;
  }

  /** GET shorthand. */
  get<T>(path: string, query?: Record<string, unknown>, options: RequestOptions = {}): Promise<T> {
    return this.request<T>({ ...options, method: 'GET', path, query });
  }

  /** POST shorthand. */
  post<T>(path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
    return this.request<T>({ ...options, method: 'POST', path, body });
  }

  /** PUT shorthand. */
  put<T>(path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
    return this.request<T>({ ...options, method: 'PUT', path, body });
  }

  /** DELETE shorthand (a body carries bulk-delete filters). */
  delete<T>(path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
    return this.request<T>({ ...options, method: 'DELETE', path, body });
  }

  /**
   * A file upload (CSV, attachments) as a user call like any other: it waits while a refresh runs, carries the
   * app headers and bearer, retries once after a 401 and logs out after a second; a 422 keeps its field messages.
   */
  upload<T>(options: TransferOptions): Promise<T> {
    return this.transfer(options, (response) => readJson(response) as Promise<T>);
  }

  /** A file download (an attachment, a message archive) as a user call: the answer's bytes. */
  download(options: Omit<TransferOptions, 'body' | 'contentType'>): Promise<Blob> {
    return this.transfer({ ...options, method: 'GET' }, (response) => response.blob());
  }

  private transfer<T>(options: TransferOptions, read: (response: Response) => Promise<T>): Promise<T> {
    const method = options.method ?? 'POST';
    const url = this.url(options.path, options.query);
    const transport = options.transport ?? this.deps.fetch;
    const transmit: Transmit = (headers) => {
      if (options.contentType) headers['Content-Type'] = options.contentType;
      return transport(url, { method, headers, body: options.body?.() });
    };
    return this.execute(method, url, requestKey(method, url), {}, transmit, read);
  }

  private async execute<T>(
    method: HttpMethod,
    url: string,
    key: string,
    options: RequestOptions,
    transmit: Transmit,
    read: (response: Response) => Promise<T>,
  ): Promise<T> {
    if (method === 'GET') return this.exchange(method, url, key, options, transmit, read);
    this.writes += 1;
    try {
      return await this.exchange(method, url, key, options, transmit, read);
    } finally {
      this.writes += 1;
    }
  }

  /** One call with the session's rules: waits while auth work runs, refreshes and retries once after a 401. */
  private async exchange<T>(
    method: HttpMethod,
    url: string,
    key: string,
    options: RequestOptions,
    transmit: Transmit,
    read: (response: Response) => Promise<T>,
  ): Promise<T> {
    const userCall = !options.guest;
    if (!options.bypassWait) await waitWhile(() => this.auth.isBusy(), this.deps.pollMs);

    let sent = await this.send(key, options, transmit);
    if (sent.response.status === 401 && userCall && !options.noAuthRetry) {
      const renewed = await this.auth.renew(sent.token);
      if (!renewed) throw await this.toError(sent.response, method, url, key, options);
      sent = await this.send(key, options, transmit);
      if (sent.response.status === 401) {
        const error = await this.toError(sent.response, method, url, key, options);
        await this.auth.logout();
        throw error;
      }
    }

    const { response } = sent;
    if (response.status >= 200 && response.status < 300) {
      // Only what was stored before this call went out: a refused submit in the meantime keeps its messages.
      if (userCall) clearFieldErrorsStoredBefore(this.deps.store, sent.mark);
      return read(response);
    }
    throw await this.toError(response, method, url, key, options);
  }

  private async send(key: string, options: RequestOptions, transmit: Transmit) {
    const mark = fieldErrorsMark(this.deps.store);
    const headers = this.baseHeaders();
    const token = options.guest ? null : this.auth.accessToken();
    if (!options.guest) {
      const authorization = this.auth.authorization();
      if (authorization) headers[authorization.header] = authorization.value;
    }

    let response: Response;
    try {
      response = await transmit(headers);
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
      // Network failures are not reported to the error log.
      throw new ApiError({ status: 0, code: 'network_error', message: cause instanceof Error ? cause.message : String(cause), requestKey: key });
    }
    this.deps.onVersion?.(response.headers.get('x-version'));
    return { response, token, mark };
  }

  private async toError(response: Response, method: HttpMethod, url: string, key: string, options: RequestOptions): Promise<ApiError> {
    const body = (await readJson(response).catch(() => null)) as Partial<ErrorBody> | null;
    const error = new ApiError({
      status: response.status,
      code: (body?.error?.code as ErrorCode | undefined) ?? 'unknown',
      message: body?.error?.message || response.statusText || `HTTP ${response.status}`,
      fields: body?.error?.fields,
      requestKey: key,
    });
    if (response.status === 422) setFieldErrors(this.deps.store, key, error.fields);
    if (response.status >= 500 && !options.noLog) {
      this.deps.onServerError?.({ method, url, status: response.status, code: error.code, message: error.message });
    }
    return error;
  }
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
