export interface DohStandIn {
  port: number;
  /** The resolver URL (DNS_RESOLVER_URL): http://127.0.0.1:<port>/dns-query */
  url: string;
  file: string;
  close(): Promise<void>;
}
/** What the zone file maps "<name> <TYPE>" to: records (a TXT record as one text or as its strings), or a failure. */
export type DohZoneEntry = (string | string[])[] | { status: 'SERVFAIL' | 'REFUSED' | 'NXDOMAIN' | 'TIMEOUT' };
export type DohZone = Record<string, DohZoneEntry>;
export declare function startDohStandIn(options?: { port?: number; file?: string }): Promise<DohStandIn>;
