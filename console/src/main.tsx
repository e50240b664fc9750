import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './stores/i18n.ts';
import { App } from './app/App.tsx';
import { swallowCancelledRejections } from './infra/http/http-errors.ts';
import { recordMarketingSource } from './infra/storage/marketing-cookies.ts';
import './styles/global.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

swallowCancelledRejections();
recordMarketingSource();

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
