// The password policy the server enforces and /init/guest publishes for the console's live checks.
export const PASSWORD_POLICY = {
  min_length: 6,
  is_upper_required: true,
  is_lower_required: true,
  is_number_required: true,
  extra_characters: '!=@-+#$%^&*{}_',
} as const;

export type PasswordPolicy = typeof PASSWORD_POLICY;
