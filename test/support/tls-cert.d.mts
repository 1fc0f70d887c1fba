export interface TestTls {
  caCert: string;
  /** Signed by the test CA, for 127.0.0.1 and localhost: trusted once the CA is. */
  trusted: { key: string; cert: string };
  /** Self-signed, not in any trust store. */
  untrusted: { key: string; cert: string };
}
export declare function createTestTls(dir: string): Promise<TestTls>;
export declare function trustTestCa(dir: string, tls: TestTls): string;
export declare function readTestTls(dir: string): TestTls;
