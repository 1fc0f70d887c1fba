// The one error envelope every route uses. The console reads `error.fields` onto form fields on 422.
export type ErrorCode =
  | 'validation_failed'
  | 'bad_request'
  | 'invalid_json'
  | 'unauthorized'
  | 'invalid_credentials'
  | 'too_many_attempts'
  | 'rate_limited'
  | 'forbidden'
  | 'not_found'
  | 'org_not_found'
  | 'conflict'
  | 'unsupported_media_type'
  | 'internal_error'
  // Identity (issue 3)
  | 'registration_incomplete'
  | 'registration_paused'
  | 'registration_closed'
  | 'link_invalid'
  | 'current_password_wrong'
  | 'social_already_linked'
  | 'last_login_method'
  | 'api_key_exists'
  | 'demo_locked'
  | 'payment_failed'
  | 'webhook_invalid'
  | 'provider_unavailable'
  // Broadcasts: an action the broadcast's status does not allow (pause a finished one, start it twice...)
  | 'invalid_transition'
  // Idempotency keys of the send API (src/modules/idempotency): a malformed key (400), a retry while the first call
  // runs (409), a used key with another request (422)
  | 'invalid_idempotency_key'
  | 'idempotency_in_flight'
  | 'idempotency_key_reused'
  // Organisation API keys (issue 36): a key used on another organisation's host, or beyond its scope.
  | 'wrong_organization'
  | 'scope'
  // Sending domains (issue 37, src/modules/domain/claim.ts): another organisation holds the name (or a domain above
  // it) verified; a key rotation already under way; an action that needs a verified domain.
  | 'taken'
  | 'subdomainTaken'
  | 'rotationPending'
  | 'notVerified'
  // Webhook endpoints (issue 38): an organisation at its endpoint limit.
  | 'limit';

export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    /** Field path (dot separated, e.g. `settings.0.sender_id`) to its messages. Present on 422. */
    fields?: Record<string, string[]>;
    request_id?: string;
  };
}

export interface ItemBody<T> {
  data: T;
}
