import { Alert, Anchor } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';

/** The demo organisation's sign-in notice: this is a shared demo; the login and reset times are on /demo-info. */
export function DemoNotice() {
  const { t } = useTranslation();
  return (
    <Alert color="blue" icon={<IconInfoCircle size={18} />} mb="md" data-testid="demo-notice">
      {t('identity.demo.notice')}{' '}
      <Link href="/demo-info" asChild>
        <Anchor href="/demo-info" size="sm" data-testid="demo-notice-link">
          {t('identity.demo.noticeLink')}
        </Anchor>
      </Link>
    </Alert>
  );
}
