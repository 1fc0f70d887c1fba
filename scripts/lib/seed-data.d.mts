export declare const SEED_ORG: { name: string; domain: string };
export declare const SEED_USER: { name: string; username: string; email: string; password: string };
