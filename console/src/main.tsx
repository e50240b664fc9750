import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './app/i18n.ts';
import { App } from './app/App.tsx';
import './styles/global.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
