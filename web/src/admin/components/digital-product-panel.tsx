// The digital side of the Add and Edit Product dialogs: the file a file product delivers (chosen in
// Add Product and uploaded once the product exists; uploaded at once in Edit Product), and, for any
// digital product, its payable URL (HTTP 402, x402 v2) with a copy button and the curl and
// @x402/fetch lines an agent's developer starts from.
import { DIGITAL_FILE, DIGITAL_FILE_MESSAGES } from '@store/shared';
import { useId, useState } from 'react';
import { CopyButton } from '../../components/copy-button.tsx';
import { UNKNOWN_NETWORK_NAME, useChainInfo } from '../../lib/chain-info.ts';
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

/** Why the browser already knows `file` will be refused (too large, a type not sold); or none. */
export function fileProblem(file: File): string | undefined {
  if (file.size > DIGITAL_FILE.maxBytes) return DIGITAL_FILE_MESSAGES.tooLarge;
  if (file.size === 0) return DIGITAL_FILE_MESSAGES.empty;
  if (file.type && !(DIGITAL_FILE.types as readonly string[]).includes(file.type))
    return DIGITAL_FILE_MESSAGES.type;
  return undefined;
}

/** Uploads `file` as the product's file and says how it went; the product after it, or none. */
export async function uploadFileOf(
  productId: string,
  file: File,
): Promise<MerchantProduct | undefined> {
  try {
    const updated = await uploadProductFile(productId, file);
    toast({ title: 'File uploaded', description: `${file.name}: delivered once paid` });
    return updated;
  } catch (error) {
    toastError('Failed to upload the file', (error as Error).message);
    return undefined;
  }
}

/**
 * The file and payable URL of `product`; `onChanged` gets the product after an upload. Without a
 * product (Add Product) the file is only chosen (`onFileChosen`): the dialog uploads it once the
 * product is created.
 */
export function DigitalProductPanel(props: {
  product?: MerchantProduct | undefined;
  onChanged?: (product: MerchantProduct) => void;
  onFileChosen?: (file: File | undefined) => void;
}) {
  const [product, setProduct] = useState(props.product);
  const [uploading, setUploading] = useState(false);
  const [chosen, setChosen] = useState<File>();
  const [problem, setProblem] = useState<string>();
  const errorId = useId();
  const chain = useChainInfo();
  // Note: no chain id until the API has said which chain the deployment settles on.
  const x402Network = `eip155:${chain.loaded ? chain.chainId : UNKNOWN_NETWORK_NAME}`;
  const digital = product?.digital;
  const pick = async (file: File | undefined) => {
    const refused = file && fileProblem(file);
    setProblem(refused);
    if (refused) return;
    if (!product) {
      setChosen(file);
      props.onFileChosen?.(file);
      return;
    }
    if (!file) return;
    setUploading(true);
    const updated = await uploadFileOf(product.id, file);
    setUploading(false);
    if (!updated) return;
    setProduct(updated);
    props.onChanged?.(updated);
  };
  return (
    <section className="digital-panel" aria-label="Digital delivery">
      <h3 className="small">Digital delivery</h3>
      {!product && chosen && (
        <p className="small">
          File: <strong>{chosen.name}</strong> ({chosen.type || 'unknown type'},{' '}
          {sizeOf(chosen.size)}), uploaded when you add the product. Shoppers get a download link
          that expires once their order is paid; agents get the file itself.
        </p>
      )}
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
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? errorId : undefined}
            onChange={(event) => void pick(event.target.files?.[0])}
          />
          <span className="field-hint">{DIGITAL_FILE.hint}</span>
          {problem && (
            <span id={errorId} className="field-error" role="alert">
              {problem}
            </span>
          )}
        </label>
      )}
      {product?.x402Url && (
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
              {fetchExample(product.x402Url, x402Network)}
            </pre>
            <CopyButton
              text={fetchExample(product.x402Url, x402Network)}
              label="@x402/fetch example"
            />
          </div>
        </div>
      )}
    </section>
  );
}
