// Layout of the two legal pages: a title, the last-updated line, sections and the footer.
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { SiteFooter } from './site-footer.tsx';

/** A legal document page. */
export function LegalPage(props: { title: string; children: ReactNode }) {
  return (
    <div className="content-page">
      <main className="page prose">
        <Link to="/" className="back-link">
          ← Home
        </Link>
        <h1>{props.title}</h1>
        <p className="muted">Last updated: January 1, 2025</p>
        {props.children}
      </main>
      <SiteFooter />
    </div>
  );
}
