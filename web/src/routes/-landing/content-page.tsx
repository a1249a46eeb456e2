// Layout of the content pages (docs, link builder, legal): a Home link, the title and the footer.
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { BackIcon } from '../../components/icons.tsx';
import { SiteFooter } from './site-footer.tsx';

/** A content page titled `title`; `className` is added to its main element's. */
export function ContentPage(props: { title: string; className: string; children: ReactNode }) {
  return (
    <div className="content-page">
      <main className={`page ${props.className}`}>
        <Link to="/" className="back-link">
          <BackIcon size="1em" aria-hidden="true" /> Home
        </Link>
        <h1>{props.title}</h1>
        {props.children}
      </main>
      <SiteFooter />
    </div>
  );
}
