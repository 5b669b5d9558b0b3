package oidc

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/jsonx"
)

// WellKnown names the well-known document a [Provider] reads its metadata
// from.
type WellKnown int

const (
	// OpenIDConfiguration is the issuer followed by
	// "/.well-known/openid-configuration" (OpenID Connect Discovery 1.0
	// §4.1): https://id.example/tenant gives
	// https://id.example/tenant/.well-known/openid-configuration.
	OpenIDConfiguration WellKnown = iota
	// OAuthAuthorizationServer is "/.well-known/oauth-authorization-server"
	// inserted between the host and the path of the issuer (RFC 8414
	// §3.1): https://id.example/tenant gives
	// https://id.example/.well-known/oauth-authorization-server/tenant.
	OAuthAuthorizationServer
)

// Metadata is a provider's metadata document: OpenID Provider Metadata
// (OpenID Connect Discovery 1.0 §3) or Authorization Server Metadata (RFC
// 8414 §2), which share their member names. Only the members this package
// uses are checked (issuer, jwks_uri, id_token_signing_alg_values_supported);
// the others are read as strings or arrays of strings when present and
// of that type, and left empty otherwise. Raw is the whole document, for
// the members not listed here.
type Metadata struct {
	Issuer                            string   // "issuer", equal to the configured issuer (Discovery §4.3, RFC 8414 §3.3)
	AuthorizationEndpoint             string   // "authorization_endpoint"
	TokenEndpoint                     string   // "token_endpoint"
	UserinfoEndpoint                  string   // "userinfo_endpoint"
	JWKSURI                           string   // "jwks_uri": https, required by this package
	RegistrationEndpoint              string   // "registration_endpoint"
	EndSessionEndpoint                string   // "end_session_endpoint" (OpenID Connect RP-Initiated Logout 1.0 §2.1)
	IntrospectionEndpoint             string   // "introspection_endpoint" (RFC 8414 §2)
	RevocationEndpoint                string   // "revocation_endpoint" (RFC 8414 §2)
	ScopesSupported                   []string // "scopes_supported"
	ResponseTypesSupported            []string // "response_types_supported"
	GrantTypesSupported               []string // "grant_types_supported"
	SubjectTypesSupported             []string // "subject_types_supported"
	IDTokenSigningAlgValuesSupported  []string // "id_token_signing_alg_values_supported"
	TokenEndpointAuthMethodsSupported []string // "token_endpoint_auth_methods_supported"
	CodeChallengeMethodsSupported     []string // "code_challenge_methods_supported" (RFC 8414 §2)
	ClaimsSupported                   []string // "claims_supported"
	// Raw is the document as served.
	Raw []byte
}

// maxDocumentMembers bounds the members of the document and of each object
// in it.
const maxDocumentMembers = 512

// parseMetadata reads a metadata document: one strict JSON object (no
// duplicate member names: a second "issuer" must not be read by one
// parser and not by another), whose issuer equals issuer exactly, with a
// jwks_uri that is https (http with allowHTTP).
func parseMetadata(body []byte, issuer string, allowHTTP bool) (*Metadata, error) {
	m := &Metadata{Raw: body}
	err := jsonx.ScanObject(body, jsonx.Limits{MaxMembers: maxDocumentMembers}, func(name, v []byte) error {
		var err error
		if p := m.stringMember(name); p != nil {
			*p, err = jsonx.String(v)
		} else if p := m.listMember(name); p != nil {
			*p, err = jsonx.StringArray(v)
		} else {
			return nil
		}
		switch string(name) {
		case "issuer", "jwks_uri", "id_token_signing_alg_values_supported":
			if err != nil {
				return fmt.Errorf("%q: %w", name, err)
			}
		}
		return nil // another member of the wrong type is left empty
	})
	if err != nil {
		return nil, fmt.Errorf("not a metadata document: %w: %w", untrusted.Error(err), jose.ErrMalformed)
	}
	if m.Issuer != issuer {
		return nil, fmt.Errorf("issuer %s is not the configured %q (OpenID Connect Discovery 1.0 §4.3): %w", untrusted.Quote(m.Issuer), issuer, ErrIssuerMismatch)
	}
	if m.JWKSURI == "" {
		return nil, errors.New("no jwks_uri")
	}
	u, err := url.Parse(m.JWKSURI)
	if err != nil || u.Host == "" || u.Scheme != "https" && (u.Scheme != "http" || !allowHTTP) {
		return nil, fmt.Errorf("jwks_uri %s is not an absolute https URL", untrusted.Quote(m.JWKSURI))
	}
	return m, nil
}

// stringMember returns the field of m for the string member name, or
// nil.
func (m *Metadata) stringMember(name []byte) *string {
	switch string(name) {
	case "issuer":
		return &m.Issuer
	case "authorization_endpoint":
		return &m.AuthorizationEndpoint
	case "token_endpoint":
		return &m.TokenEndpoint
	case "userinfo_endpoint":
		return &m.UserinfoEndpoint
	case "jwks_uri":
		return &m.JWKSURI
	case "registration_endpoint":
		return &m.RegistrationEndpoint
	case "end_session_endpoint":
		return &m.EndSessionEndpoint
	case "introspection_endpoint":
		return &m.IntrospectionEndpoint
	case "revocation_endpoint":
		return &m.RevocationEndpoint
	}
	return nil
}

// listMember returns the field of m for the member name, an array of
// strings, or nil.
func (m *Metadata) listMember(name []byte) *[]string {
	switch string(name) {
	case "scopes_supported":
		return &m.ScopesSupported
	case "response_types_supported":
		return &m.ResponseTypesSupported
	case "grant_types_supported":
		return &m.GrantTypesSupported
	case "subject_types_supported":
		return &m.SubjectTypesSupported
	case "id_token_signing_alg_values_supported":
		return &m.IDTokenSigningAlgValuesSupported
	case "token_endpoint_auth_methods_supported":
		return &m.TokenEndpointAuthMethodsSupported
	case "code_challenge_methods_supported":
		return &m.CodeChallengeMethodsSupported
	case "claims_supported":
		return &m.ClaimsSupported
	}
	return nil
}

// wellKnownURL returns the URL of the document kind of issuer, after
// checking issuer: an https URL with no query or fragment (Discovery
// §2, RFC 8414 §2), http with allowHTTP.
func wellKnownURL(issuer string, kind WellKnown, allowHTTP bool) (string, error) {
	u, err := url.Parse(issuer)
	if err != nil {
		return "", fmt.Errorf("oidc: issuer: %w", err)
	}
	switch {
	case u.Host == "" || u.Scheme != "https" && u.Scheme != "http":
		return "", fmt.Errorf("oidc: issuer %q is not an absolute https URL", issuer)
	case u.Scheme == "http" && !allowHTTP:
		return "", fmt.Errorf("oidc: issuer %q is http: https is required unless Options.AllowHTTP is set", issuer)
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(issuer, "#"):
		return "", fmt.Errorf("oidc: issuer %q has a query or a fragment (OpenID Connect Discovery 1.0 §2)", issuer)
	case u.User != nil:
		return "", fmt.Errorf("oidc: issuer %q has user information", u.Redacted())
	}
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	switch kind {
	case OpenIDConfiguration:
		return u.Scheme + "://" + u.Host + path + "/.well-known/openid-configuration", nil
	case OAuthAuthorizationServer:
		return u.Scheme + "://" + u.Host + "/.well-known/oauth-authorization-server" + path, nil
	}
	return "", fmt.Errorf("oidc: Options.Document %d is not a WellKnown", kind)
}
