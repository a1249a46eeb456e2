// The digital side of the Edit Product dialog: the file a file product delivers (and its upload),
// and, for any digital product, its payable URL (HTTP 402, x402 v2) with a copy button and the
// curl and @x402/fetch lines an agent's developer starts from.
import { useState } from 'react';
import { CopyButton } from '../../components/copy-button.tsx';
import { useChainInfo } from '../../lib/chain-info.ts';
import { toast, toastError } from '../../lib/toast.ts';
import type { MerchantProduct } from '../types.ts';
import { uploadProductFile } from '../uploads-api.ts';

const KB = 1024;
const sizeOf = (bytes: number) =>
  bytes < KB
    ? `${bytes} B`
    : bytes < KB * KB
      ? `${(bytes / KB).toFixed(0)} KB`
      : `${(bytes / KB / KB).toFixed(1)} MB`;

/** The curl line that shows the 402 and its requirements. */
export const curlExample = (url: string) => `curl -i ${url}`;

/** The @x402/fetch lines that pay the URL from an agent's key. */
export function fetchExample(url: string, network: string): string {
  return [
    "import { ExactEvmScheme } from '@x402/evm';",
    "import { wrapFetchWithPaymentFromConfig } from '@x402/fetch';",
    "import { privateKeyToAccount } from 'viem/accounts';",
    '',
    'const account = privateKeyToAccount(process.env.AGENT_KEY);',
    'const pay = wrapFetchWithPaymentFromConfig(fetch, {',
    `  schemes: [{ network: '${network}', client: new ExactEvmScheme(account) }],`,
    '});',
    `const response = await pay('${url}');`,
  ].join('\n');
}

/** The file and payable URL of `product`; `onChanged` gets the product after an upload. */
export function DigitalProductPanel(props: {
  product: MerchantProduct;
  onChanged?: (product: MerchantProduct) => void;
}) {
  const [product, setProduct] = useState(props.product);
  const [uploading, setUploading] = useState(false);
  const chain = useChainInfo();
  const digital = product.digital;
  const upload = async (file: File | undefined) => {
    if (!file) return;
    setUploading(true);
    try {
      const updated = await uploadProductFile(product.id, file);
      setProduct(updated);
      props.onChanged?.(updated);
      toast({ title: 'File uploaded', description: `${file.name}: delivered once paid` });
    } catch (error) {
      toastError('Failed to upload the file', (error as Error).message);
    } finally {
      setUploading(false);
    }
  };
  return (
    <section className="digital-panel" aria-label="Digital delivery">
      <h3 className="small">Digital delivery</h3>
      {digital?.kind === 'file' && (
        <p className="small">
          File: <strong>{digital.fileName}</strong> ({digital.fileType}, {sizeOf(digital.fileBytes)}
          ). Shoppers get a download link that expires once their order is paid; agents get the file
          itself.
        </p>
      )}
      {digital?.kind === 'api' && (
        <p className="small">
          API resource: each paid request is sent to <code>{digital.upstreamUrl}</code>.
        </p>
      )}
      {digital?.kind !== 'api' && (
        <label className="field">
          <span className="field-label">{digital ? 'Replace the file' : 'Sell a file'}</span>
          <input
            type="file"
            disabled={uploading}
            onChange={(event) => void upload(event.target.files?.[0])}
          />
          <span className="field-hint">
            PDF, ZIP, EPUB, text, CSV, JSON, PNG, JPG, WebP, MP3 or MP4, max 20MB
          </span>
        </label>
      )}
      {product.x402Url && (
        <div className="x402-url">
          <p className="small">
            Payable URL (HTTP 402, x402 v2): agents pay it in USDC per request.
          </p>
          <div className="copy-row">
            <code data-testid="x402-url">{product.x402Url}</code>
            <CopyButton text={product.x402Url} label="Payable URL" />
          </div>
          <p className="small muted">Try it (answers 402 with the payment requirements):</p>
          <div className="copy-row">
            <pre className="code-block">{curlExample(product.x402Url)}</pre>
            <CopyButton text={curlExample(product.x402Url)} label="curl example" />
          </div>
          <p className="small muted">Pay it from an agent with @x402/fetch:</p>
          <div className="copy-row">
            <pre className="code-block" data-testid="x402-fetch-example">
              {fetchExample(product.x402Url, `eip155:${chain.chainId}`)}
            </pre>
            <CopyButton
              text={fetchExample(product.x402Url, `eip155:${chain.chainId}`)}
              label="@x402/fetch example"
            />
          </div>
        </div>
      )}
    </section>
  );
}
