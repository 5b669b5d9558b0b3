package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
)

var inspectCommand = &command{
	name:    "inspect",
	summary: "print the headers and payload of a token, unverified",
	usage: `Usage: jose inspect [TOKEN]

Print the headers of the JWS or JWE TOKEN (a file, - for standard input, or
the token itself; default standard input), compact or JSON, and for a JWS
its payload, as JSON. Nothing is verified or decrypted: the output says
"verified": false, and nothing in it may be trusted. Headers must still be
well-formed JOSE headers (RFC 7515 §4, RFC 7516 §4). A payload that is a
JSON object or array is shown as JSON, other UTF-8 text as
"payload_text", anything else as "payload_base64url". In the JSON printed,
the characters a terminal would hide or that reorder the text around them
(control characters, DEL, bidirectional controls such as U+202E, other
format characters such as U+200B and U+FEFF, U+2028 and U+2029,
variation selectors and the other characters Unicode says to show as
nothing) are escaped as \uXXXX: it decodes to what the token holds.
`,
	maxArgs:  1,
	tokenArg: true,
	flags: func(fs *flag.FlagSet) action {
		return func(s *streams, args []string) error {
			tok, err := readToken(s, argOrStdin(args))
			if err != nil {
				return err
			}
			var in *inspection
			if isJSON(tok) {
				in, err = inspectJSON(tok)
			} else {
				in, err = inspectCompact(tok)
			}
			if err != nil {
				return err
			}
			return writeValue(s.stdout, in)
		}
	},
}

// inspection is the output of "jose inspect".
type inspection struct {
	Type          string `json:"type"`          // "JWS" or "JWE"
	Serialization string `json:"serialization"` // "compact", "flattened" or "general"
	Verified      bool   `json:"verified"`      // always false

	// Header is the protected header of a compact token.
	Header json.RawMessage `json:"header,omitempty"`
	// Signatures are the headers of each signature of a JWS JSON token.
	Signatures []headers `json:"signatures,omitempty"`
	// Protected and Unprotected are the protected and shared unprotected
	// headers of a JWE JSON token, Recipients its per-recipient headers.
	Protected   json.RawMessage `json:"protected,omitempty"`
	Unprotected json.RawMessage `json:"unprotected,omitempty"`
	Recipients  []headers       `json:"recipients,omitempty"`

	Detached         bool            `json:"detached,omitempty"`
	Payload          json.RawMessage `json:"payload,omitempty"`
	PayloadText      *string         `json:"payload_text,omitempty"`
	PayloadBase64URL string          `json:"payload_base64url,omitempty"`
}

// headers are the protected and unprotected headers of one signature or
// recipient.
type headers struct {
	Protected json.RawMessage `json:"protected,omitempty"`
	Header    json.RawMessage `json:"header,omitempty"`
}

var errNotToken = fmt.Errorf("want 3 parts separated by dots (JWS), 5 (JWE), or a JSON object: %w", jose.ErrMalformed)

func inspectCompact(tok []byte) (*inspection, error) {
	var in inspection
	in.Serialization = "compact"
	// Counted before splitting, so that a token of a million dots is
	// refused without making a million slices.
	switch bytes.Count(tok, []byte(".")) {
	case 2:
		in.Type = "JWS"
	case 4:
		in.Type = "JWE"
	default:
		return nil, errNotToken
	}
	parts := bytes.Split(tok, []byte("."))
	use := jose.JWSHeader
	if in.Type == "JWE" {
		use = jose.JWEHeader
	}
	h, raw, err := decodeProtected(use, parts[0])
	if err != nil {
		return nil, err
	}
	in.Header = raw
	if in.Type == "JWS" {
		payload := parts[1]
		if len(payload) == 0 {
			in.Detached = true
		} else if err := in.setPayload(payload, h); err != nil {
			return nil, err
		}
	}
	return &in, nil
}

// decodeProtected decodes and checks a protected header of a token of kind
// use (whose members the other kind alone defines are not read), and
// returns it and its JSON text.
func decodeProtected(use jose.HeaderUse, b64 []byte) (*jose.Header, json.RawMessage, error) {
	if len(b64) == 0 {
		return nil, nil, fmt.Errorf("the protected header is empty: %w", jose.ErrMalformed)
	}
	raw, err := jose.Base64URLDecode(b64)
	if err != nil {
		return nil, nil, fmt.Errorf("the protected header is not base64url (RFC 7515 §2): %w", jose.ErrMalformed)
	}
	if !json.Valid(raw) || !bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
		return nil, nil, fmt.Errorf("the protected header is not a JSON object: %w", jose.ErrMalformed)
	}
	h, err := use.Parse(raw, jose.Limits{})
	if err != nil {
		return nil, nil, fmt.Errorf("the protected header: %w", err)
	}
	return h, raw, nil
}

// checkUnprotected checks raw, an unprotected header object of a token of
// kind use.
func checkUnprotected(use jose.HeaderUse, raw json.RawMessage) (*jose.Header, error) {
	if raw == nil {
		return nil, nil
	}
	return use.Parse(raw, jose.Limits{})
}

// setPayload decodes the payload as the header says (RFC 7797 §3).
func (in *inspection) setPayload(payload []byte, hs ...*jose.Header) error {
	p := payload
	if !unencoded(hs...) {
		var err error
		if p, err = jose.Base64URLDecode(payload); err != nil {
			return fmt.Errorf("the payload is not base64url: %w", err)
		}
	}
	t := bytes.TrimSpace(p)
	switch {
	case len(t) > 0 && (t[0] == '{' || t[0] == '[') && utf8.Valid(t) && json.Valid(t):
		in.Payload = t
	case utf8.Valid(p):
		s := string(p)
		in.PayloadText = &s
	default:
		in.PayloadBase64URL = jose.Base64URLEncode(p)
	}
	return nil
}

func unencoded(hs ...*jose.Header) bool {
	for _, h := range hs {
		if h != nil && h.B64 != nil && !*h.B64 {
			return true
		}
	}
	return false
}

func inspectJSON(tok []byte) (*inspection, error) {
	top, err := members(tok)
	if err != nil {
		return nil, err
	}
	var in inspection
	switch {
	case top["ciphertext"] != nil:
		in.Type = "JWE"
		err = in.jwe(top)
	case top["signatures"] != nil || top["signature"] != nil:
		in.Type = "JWS"
		err = in.jws(top)
	default:
		return nil, fmt.Errorf("a JSON object with neither \"signature(s)\" (JWS) nor \"ciphertext\" (JWE): %w", jose.ErrMalformed)
	}
	if err != nil {
		return nil, err
	}
	return &in, nil
}

func (in *inspection) jws(top map[string]json.RawMessage) error {
	var sigs []map[string]json.RawMessage
	if raw := top["signatures"]; raw != nil {
		in.Serialization = "general"
		if err := elements(raw, jose.DefaultMaxSignatures, &sigs); err != nil {
			return fmt.Errorf("signatures: %w", err)
		}
	} else {
		in.Serialization = "flattened"
		sigs = append(sigs, top)
	}
	var hs []*jose.Header
	for i, sig := range sigs {
		var sh headers
		if raw := sig["protected"]; raw != nil {
			b64, err := jsonString(raw)
			if err != nil {
				return fmt.Errorf("signature %d: protected: %w", i+1, err)
			}
			h, decoded, err := decodeProtected(jose.JWSHeader, []byte(b64))
			if err != nil {
				return fmt.Errorf("signature %d: %w", i+1, err)
			}
			sh.Protected, hs = decoded, append(hs, h)
		}
		if raw := sig["header"]; raw != nil {
			if _, err := checkUnprotected(jose.JWSHeader, raw); err != nil {
				return fmt.Errorf("signature %d: header: %w", i+1, err)
			}
			sh.Header = raw
		}
		in.Signatures = append(in.Signatures, sh)
	}
	raw := top["payload"]
	if raw == nil {
		in.Detached = true
		return nil
	}
	payload, err := jsonString(raw)
	if err != nil {
		return fmt.Errorf("payload: %w", err)
	}
	return in.setPayload([]byte(payload), hs...)
}

func (in *inspection) jwe(top map[string]json.RawMessage) error {
	if raw := top["protected"]; raw != nil {
		b64, err := jsonString(raw)
		if err != nil {
			return fmt.Errorf("protected: %w", err)
		}
		if _, in.Protected, err = decodeProtected(jose.JWEHeader, []byte(b64)); err != nil {
			return err
		}
	}
	if _, err := checkUnprotected(jose.JWEHeader, top["unprotected"]); err != nil {
		return fmt.Errorf("unprotected: %w", err)
	}
	in.Unprotected = top["unprotected"]
	var recipients []map[string]json.RawMessage
	if raw := top["recipients"]; raw != nil {
		in.Serialization = "general"
		if err := elements(raw, jose.DefaultMaxRecipients, &recipients); err != nil {
			return fmt.Errorf("recipients: %w", err)
		}
	} else {
		in.Serialization = "flattened"
		if top["header"] != nil {
			recipients = append(recipients, top)
		}
	}
	for i, r := range recipients {
		if _, err := checkUnprotected(jose.JWEHeader, r["header"]); err != nil {
			return fmt.Errorf("recipient %d: header: %w", i+1, err)
		}
		in.Recipients = append(in.Recipients, headers{Header: r["header"]})
	}
	return nil
}

// members returns the members of the JSON object data, refusing duplicate
// names (RFC 7515 §7.2.1: a token whose members two parsers could read
// differently is malformed).
func members(data []byte) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object: %w", jose.ErrMalformed)
	}
	m := make(map[string]json.RawMessage)
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("invalid JSON: %w", jose.ErrMalformed)
		}
		name := t.(string) // object keys are strings once Token succeeded
		if _, dup := m[name]; dup {
			return nil, fmt.Errorf("duplicate member %s: %w", untrusted.Quote(name), jose.ErrMalformed)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("invalid JSON: %w", jose.ErrMalformed)
		}
		m[name] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", jose.ErrMalformed)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("data after the JSON object: %w", jose.ErrMalformed)
	}
	return m, nil
}

// elements reads the JSON array raw, of at most max objects, into out.
func elements(raw json.RawMessage, max int, out *[]map[string]json.RawMessage) error {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || len(items) == 0 {
		return fmt.Errorf("want a non-empty array of objects: %w", jose.ErrMalformed)
	}
	if len(items) > max {
		return fmt.Errorf("more than %d: %w", max, jose.ErrLimitExceeded)
	}
	for _, item := range items {
		m, err := members(item)
		if err != nil {
			return err
		}
		*out = append(*out, m)
	}
	return nil
}

func jsonString(raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("want a string: %w", jose.ErrMalformed)
	}
	return s, nil
}
