// Route /store/{slug}/review/{orderId}/{productId}#token=…: the review form a buyer reaches from the
// link in the receipt or the thank-you page. The token (the buyer's proof of purchase) comes from
// the link's fragment or from this browser's own order; without one the page says where the link
// is. Only a paid order of this store that holds the product can review it (the API checks again,
// token included); one review per order and product.
import {
  isRevenueStatus,
  type Order,
  REVIEW_LIMITS,
  REVIEW_MESSAGES,
  type ReviewFormInput,
  ReviewFormSchema,
} from '@store/shared';
import { revalidateLogic, useStore } from '@tanstack/react-form';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import * as v from 'valibot';
import { StarIcon } from '../../../../../components/icons.tsx';
import { MessageCard } from '../../../../../components/message-card.tsx';
import { OrderGate } from '../../../../../components/order-gate.tsx';
import { ApiError, errorText } from '../../../../../lib/api.ts';
import { submitWith, useAppForm } from '../../../../../lib/form.tsx';
import { reviewTokenFromHash, reviewTokenOf } from '../../../../../lib/review-tokens.ts';
import { IdParamSchema, requireParam } from '../../../../../lib/route-params.ts';
import { toastError } from '../../../../../lib/toast.ts';
import { useOrder } from '../../../../../lib/use-order.ts';
import { postReview } from '../../-components/reviews-api.ts';
import { useCurrentStore } from '../../-components/store-context.tsx';

export const Route = createFileRoute('/store/$slug/review/$orderId/$productId')({
  loader: ({ params }) => {
    requireParam(IdParamSchema, params.orderId);
    requireParam(IdParamSchema, params.productId);
  },
  component: ReviewPage,
});

function ReviewPage() {
  const { orderId } = Route.useParams();
  // Note: a receipt's link carries the buyer token: the order reads in full (the buyer's name).
  const [linkToken] = useState(() => reviewTokenFromHash(window.location.hash));
  const result = useOrder(orderId, linkToken);
  return (
    <OrderGate result={result} notFoundDescription="The order you're looking for doesn't exist.">
      {(order) => <ReviewForOrder order={order} />}
    </OrderGate>
  );
}

function ReviewForOrder(props: { order: Order }) {
  const { slug, productId } = Route.useParams();
  const store = useCurrentStore();
  const [token] = useState(
    () => reviewTokenFromHash(window.location.hash) ?? reviewTokenOf(props.order.id),
  );
  const item = props.order.items.find((line) => line.productId === productId);
  const back = (
    <Link to="/store/$slug/" params={{ slug }} className="button">
      Back to Store
    </Link>
  );
  if (!item || (store.data && props.order.storeId !== store.data.id))
    return (
      <MessageCard
        title="Nothing to review"
        description="This order does not hold that product of this store."
      >
        {back}
      </MessageCard>
    );
  if (!isRevenueStatus(props.order.status))
    return (
      <MessageCard
        title="Not paid yet"
        description="You can review a product once its order is paid."
      >
        {back}
      </MessageCard>
    );
  if (!token)
    return (
      <MessageCard title="Review link not valid" description={REVIEW_MESSAGES.linkInvalid}>
        {back}
      </MessageCard>
    );
  return <ReviewForm order={props.order} productId={productId} title={item.title} token={token} />;
}

type Done = { kind: 'posted' } | { kind: 'duplicate' };

function ReviewForm(props: { order: Order; productId: string; title: string; token: string }) {
  const { slug } = Route.useParams();
  const [done, setDone] = useState<Done>();
  const form = useAppForm({
    defaultValues: {
      rating: 0,
      title: '',
      body: '',
      authorName: props.order.shippingAddress?.firstName ?? '',
    } as ReviewFormInput,
    validationLogic: revalidateLogic(),
    validators: { onDynamic: ReviewFormSchema },
    onSubmit: async ({ value }) => {
      try {
        await postReview({
          ...v.parse(ReviewFormSchema, value),
          orderId: props.order.id,
          productId: props.productId,
          token: props.token,
        });
        setDone({ kind: 'posted' });
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) setDone({ kind: 'duplicate' });
        else toastError('Failed to post review', errorText(error));
      }
    },
  });
  const submitting = useStore(form.store, (state) => state.isSubmitting);
  const productLink = (
    <Link
      to="/store/$slug/product/$productId"
      params={{ slug, productId: props.productId }}
      className="button"
    >
      View {props.title}
    </Link>
  );
  if (done)
    return (
      <MessageCard
        title={done.kind === 'posted' ? 'Thank you for your review!' : 'Already reviewed'}
        description={
          done.kind === 'posted'
            ? `Your review of ${props.title} is published, marked as a verified purchase.`
            : `This order has already reviewed ${props.title}.`
        }
      >
        {productLink}
      </MessageCard>
    );

  return (
    <main className="page review-page">
      <h1>Review {props.title}</h1>
      <p className="muted">
        Your review is published with your name and marked “Verified purchase”. The store can hide a
        review but cannot change it.
      </p>
      <form className="card review-form" noValidate onSubmit={submitWith(form)}>
        <form.Field name="rating">
          {(field) => (
            <RatingInput
              value={field.state.value}
              onChange={(rating) => field.handleChange(rating)}
              error={
                field.state.meta.isTouched || form.state.submissionAttempts > 0
                  ? firstMessage(field.state.meta.errors)
                  : undefined
              }
            />
          )}
        </form.Field>
        <form.AppField name="title">
          {(field) => <field.InputField label="Title (optional)" />}
        </form.AppField>
        <form.Field name="body">
          {(field) => (
            <TextArea
              label="Your review"
              value={field.state.value}
              onChange={field.handleChange}
              onBlur={field.handleBlur}
              error={
                field.state.meta.isTouched || form.state.submissionAttempts > 0
                  ? firstMessage(field.state.meta.errors)
                  : undefined
              }
            />
          )}
        </form.Field>
        <form.AppField name="authorName">
          {(field) => <field.InputField label="Your name" autoComplete="given-name" />}
        </form.AppField>
        <div className="actions actions-start">
          <button type="submit" className="button button-large" disabled={submitting}>
            {submitting ? 'Posting...' : 'Post Review'}
          </button>
        </div>
      </form>
    </main>
  );
}

function firstMessage(errors: readonly unknown[]): string | undefined {
  for (const error of errors) {
    if (typeof error === 'string') return error;
    if (error && typeof error === 'object' && 'message' in error) return String(error.message);
  }
  return undefined;
}

/** Five radio stars (native radios, so arrow keys work). */
function RatingInput(props: { value: number; onChange: (rating: number) => void; error?: string }) {
  const id = useId();
  return (
    <fieldset
      className="rating-input"
      aria-describedby={props.error ? `${id}-error` : undefined}
      aria-invalid={props.error ? true : undefined}
    >
      <legend>Rating</legend>
      <div className="rating-stars">
        {[1, 2, 3, 4, 5].map((star) => (
          <label key={star} className="rating-star">
            <input
              type="radio"
              name={`${id}-rating`}
              value={star}
              checked={props.value === star}
              onChange={() => props.onChange(star)}
              className="visually-hidden"
            />
            <StarIcon
              size={32}
              aria-hidden="true"
              fill={star <= props.value ? 'currentColor' : 'none'}
            />
            <span className="visually-hidden">
              {star} {star === 1 ? 'star' : 'stars'}
            </span>
          </label>
        ))}
      </div>
      {props.error && (
        <p id={`${id}-error`} className="field-error">
          {props.error}
        </p>
      )}
    </fieldset>
  );
}

function TextArea(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  error?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <textarea
        id={id}
        rows={5}
        maxLength={REVIEW_LIMITS.body}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        onBlur={props.onBlur}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
      />
      {props.error && (
        <p id={`${id}-error`} className="field-error">
          {props.error}
        </p>
      )}
    </div>
  );
}
