#include "io/s3_signer.h"

#include <gtest/gtest.h>

#include "io/s3_xml.h"

namespace floe {
namespace {

// AWS's documented example (S3 API reference, "Signature Calculations for the Authorization
// Header", Example: GET Object): the first 10 bytes of examplebucket/test.txt on 2013-05-24.
TEST(S3SignerTest, MatchesAwsDocumentedGetObjectExample) {
  SignableRequest request;
  request.method = "GET";
  request.host = "examplebucket.s3.amazonaws.com";
  request.encoded_path = "/test.txt";
  request.headers = {{"Range", "bytes=0-9"}};
  request.payload_sha256 = Sha256Hex("");
  S3Credentials credentials{"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", ""};
  HttpHeaders added = SignV4(request, credentials, "us-east-1", "s3", 1369353600);  // 20130524T000000Z
  std::string authorization;
  for (const auto& [name, value] : added) {
    if (name == "Authorization") authorization = value;
  }
  EXPECT_EQ(authorization,
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
            "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
            "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
  // The secret is never sent.
  for (const auto& [name, value] : added) EXPECT_EQ(value.find(credentials.secret_access_key), std::string::npos);
}

TEST(S3SignerTest, SessionTokenIsSentAndSigned) {
  SignableRequest request{"PUT", "127.0.0.1:9000", "/b/k", {}, {}, "UNSIGNED-PAYLOAD"};
  HttpHeaders added = SignV4(request, {"id", "secret", "token-123"}, "eu-west-1", "s3", 1369353600);
  bool token = false;
  std::string authorization;
  for (const auto& [name, value] : added) {
    if (name == "x-amz-security-token") token = value == "token-123";
    if (name == "Authorization") authorization = value;
  }
  EXPECT_TRUE(token);
  EXPECT_NE(authorization.find("x-amz-security-token"), std::string::npos);
  EXPECT_NE(authorization.find("/eu-west-1/s3/"), std::string::npos);
}

TEST(S3SignerTest, EncodesKeysAndQueriesAsSigV4Requires) {
  EXPECT_EQ(UriEncode("a b/c%3A~-_.é", true), "a%20b/c%253A~-_.%C3%A9");
  EXPECT_EQ(UriEncode("a/b", false), "a%2Fb");
  EXPECT_EQ(CanonicalQuery({{"prefix", "t/x y"}, {"list-type", "2"}, {"uploads", ""}}),
            "list-type=2&prefix=t%2Fx%20y&uploads=");
  EXPECT_EQ(Base64Encode(Md5Raw("")), "1B2M2Y8AsgTpgAmY7PhCfg==");
}

TEST(S3XmlTest, FindsElementsByTagAndDecodesEntities) {
  const std::string xml =
      "<ListBucketResult><KeyCount>2</KeyCount><Contents><Key>a&amp;b &lt;1&gt;</Key><Size>3</Size></Contents>"
      "<Contents><Key>c&#x2F;d</Key><Size>0</Size></Contents><IsTruncated>false</IsTruncated></ListBucketResult>";
  auto contents = XmlElements(xml, "Contents");
  ASSERT_EQ(contents.size(), 2u);
  EXPECT_EQ(XmlText(contents[0], "Key"), "a&b <1>");
  EXPECT_EQ(XmlText(contents[1], "Key"), "c/d");
  EXPECT_EQ(XmlText(xml, "KeyCount"), "2");  // <Key> does not match <KeyCount>
  EXPECT_FALSE(XmlText(xml, "NextContinuationToken"));
  EXPECT_TRUE(XmlElements("<Key>never closed", "Key").empty());
  EXPECT_EQ(XmlEscape("<a&'\">"), "&lt;a&amp;&apos;&quot;&gt;");
}

}  // namespace
}  // namespace floe
