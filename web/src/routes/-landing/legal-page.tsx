// Layout of the two legal pages: a content page with the last-updated line above its sections.
import type { ReactNode } from 'react';
import { ContentPage } from './content-page.tsx';

/** A legal document page. */
export function LegalPage(props: { title: string; children: ReactNode }) {
  return (
    <ContentPage title={props.title} className="prose">
      <p className="muted">Last updated: January 1, 2025</p>
      {props.children}
    </ContentPage>
  );
}
