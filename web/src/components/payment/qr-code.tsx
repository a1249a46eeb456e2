// QR code of the payment request (docs/rules.md#constants: 192 px, margin 2, black on white), drawn
// locally.
import { QR_CODE } from '@store/shared';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';

/** An image of `value` as a QR code, with the value as its text alternative. */
export function QrCode(props: { value: string; label: string }) {
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(props.value, {
      width: QR_CODE.size,
      margin: QR_CODE.margin,
      color: { dark: QR_CODE.dark, light: QR_CODE.light },
    }).then(
      (url) => live && setSrc(url),
      (error: unknown) => console.error('QR code failed', error),
    );
    return () => {
      live = false;
    };
  }, [props.value]);
  return (
    <div className="qr-code" style={{ width: QR_CODE.size, height: QR_CODE.size }}>
      {src && <img src={src} width={QR_CODE.size} height={QR_CODE.size} alt={props.label} />}
    </div>
  );
}
