import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

function Shell() {
  return (
    <main>
      <h1>Skein</h1>
    </main>
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');
createRoot(root).render(
  <StrictMode>
    <Shell />
  </StrictMode>,
);
