export declare const MOCK_CLIENT: { id: string; secret: string; name: string };
export declare function startMockProvider(): Promise<Record<string, string>>;
export default function setup(): () => Promise<void>;
