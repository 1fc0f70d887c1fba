export declare function startWebhookReceiver(): Promise<{ WEBHOOK_RECEIVER_URL: string }>;
export default function setup(): () => Promise<void>;
