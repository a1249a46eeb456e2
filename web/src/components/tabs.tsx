// Accessible tabs (WAI-ARIA tabs pattern): arrow keys, Home and End move between tabs.
import { type KeyboardEvent, type ReactNode, useId, useRef, useState } from 'react';

/** One tab and its panel. */
export interface TabItem {
  id: string;
  label: string;
  content: ReactNode;
}

/** A tab list with one visible panel; the first tab is selected at first. */
export function Tabs(props: { label: string; tabs: readonly TabItem[] }) {
  const [selected, setSelected] = useState(props.tabs[0]?.id);
  const base = useId();
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);

  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const last = props.tabs.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % props.tabs.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + props.tabs.length) % props.tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    setSelected(props.tabs[next]?.id);
    buttons.current[next]?.focus();
  };

  return (
    <div className="tabs">
      <div role="tablist" aria-label={props.label} className="tab-list">
        {props.tabs.map((tab, index) => (
          <button
            key={tab.id}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${tab.id}`}
            aria-selected={tab.id === selected}
            aria-controls={`${base}-panel-${tab.id}`}
            tabIndex={tab.id === selected ? 0 : -1}
            className="tab"
            onClick={() => setSelected(tab.id)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {props.tabs.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`${base}-panel-${tab.id}`}
          aria-labelledby={`${base}-tab-${tab.id}`}
          hidden={tab.id !== selected}
          className="tab-panel"
        >
          {tab.content}
        </div>
      ))}
    </div>
  );
}
