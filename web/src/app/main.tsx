import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { toReport } from '../lib/client-log';
import { Boot } from './Boot';
import { Providers } from './Providers';
import { createAppServices } from './services';

void createAppServices().then((services) => {
  services.logger.install(window);
  createRoot(document.getElementById('root')!, {
    // React render errors never reach window.onerror in production builds: report them here.
    onUncaughtError: (error, info) => services.logger.report(toReport(error, { source: 'react', componentStack: info.componentStack })),
  }).render(
    <StrictMode>
      <Providers services={services}>
        <Boot />
      </Providers>
    </StrictMode>,
  );
});
