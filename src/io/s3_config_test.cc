#include "io/s3_config.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>

#include <gtest/gtest.h>

#include "io/s3_client.h"

namespace floe {
namespace {

EnvLookup Env(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](std::string_view name) -> std::optional<std::string> {
    auto it = vars.find(std::string(name));
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

TEST(S3ConfigTest, AwsVariablesGiveEndpointRegionAndCredentials) {
  auto config = ResolveS3Config({}, Env({{"AWS_ACCESS_KEY_ID", "AKID"}, {"AWS_SECRET_ACCESS_KEY", "sekrit"},
                                         {"AWS_SESSION_TOKEN", "tok"}, {"AWS_DEFAULT_REGION", "eu-west-2"},
                                         {"AWS_ENDPOINT_URL", "http://localhost:9000/"}}));
  ASSERT_TRUE(config) << config.error().ToString();
  EXPECT_EQ(config->endpoint, "http://localhost:9000");
  EXPECT_EQ(config->region, "eu-west-2");
  EXPECT_EQ(config->credentials.access_key_id, "AKID");
  EXPECT_EQ(config->credentials.secret_access_key, "sekrit");
  EXPECT_EQ(config->credentials.session_token, "tok");
  EXPECT_TRUE(config->path_style);  // localhost
  // Describe never shows the secret or the token.
  EXPECT_EQ(config->Describe().find("sekrit"), std::string::npos);
  EXPECT_EQ(config->Describe().find("tok"), std::string::npos);
  EXPECT_NE(config->Describe().find("AKID"), std::string::npos);
}

TEST(S3ConfigTest, PropertiesWinOverVariablesAndTheS3EndpointVariableOverTheGeneralOne) {
  auto env = Env({{"AWS_ACCESS_KEY_ID", "env-id"}, {"AWS_SECRET_ACCESS_KEY", "env-secret"},
                  {"AWS_REGION", "us-west-1"}, {"AWS_DEFAULT_REGION", "ignored"},
                  {"AWS_ENDPOINT_URL", "http://10.0.0.1:1"}, {"AWS_ENDPOINT_URL_S3", "https://minio.example.com"}});
  auto from_env = ResolveS3Config({}, env);
  ASSERT_TRUE(from_env);
  EXPECT_EQ(from_env->endpoint, "https://minio.example.com");
  EXPECT_EQ(from_env->region, "us-west-1");
  EXPECT_FALSE(from_env->path_style);  // a DNS name: virtual-hosted

  auto from_props = ResolveS3Config({{"s3.endpoint", "http://127.0.0.1:4566"}, {"s3.region", "ap-south-1"},
                                     {"s3.access-key-id", "p-id"}, {"s3.secret-access-key", "p-secret"},
                                     {"s3.path-style-access", "false"}},
                                    env);
  ASSERT_TRUE(from_props);
  EXPECT_EQ(from_props->endpoint, "http://127.0.0.1:4566");
  EXPECT_EQ(from_props->region, "ap-south-1");
  EXPECT_EQ(from_props->credentials.access_key_id, "p-id");
  EXPECT_FALSE(from_props->path_style);  // asked for, although the host is an IP
}

TEST(S3ConfigTest, NoEndpointMeansAwsForTheRegion) {
  auto config = ResolveS3Config({{"s3.region", "eu-central-1"}}, Env({}));
  ASSERT_TRUE(config);
  EXPECT_EQ(config->endpoint, "https://s3.eu-central-1.amazonaws.com");
  EXPECT_FALSE(config->path_style);
}

TEST(S3ConfigTest, ProfileFilesGiveCredentialsRegionAndEndpoint) {
  char pattern[] = "/tmp/floe-s3-config.XXXXXX";
  std::string dir = ::mkdtemp(pattern);
  std::ofstream(dir + "/credentials") << "[default]\naws_access_key_id = d-id\naws_secret_access_key = d-secret\n"
                                      << "[etl]\naws_access_key_id=etl-id\naws_secret_access_key=etl-secret\n"
                                      << "aws_session_token = etl-token\n";
  std::ofstream(dir + "/config") << "[default]\nregion = us-east-2\n"
                                 << "[profile etl]\nregion = eu-north-1\nendpoint_url = http://127.0.0.1:9999\n"
                                 << "s3 =\n  addressing_style = virtual\n";
  auto etl = ResolveS3Config({}, Env({{"AWS_PROFILE", "etl"}, {"AWS_SHARED_CREDENTIALS_FILE", dir + "/credentials"},
                                      {"AWS_CONFIG_FILE", dir + "/config"}}));
  ASSERT_TRUE(etl) << etl.error().ToString();
  EXPECT_EQ(etl->credentials.access_key_id, "etl-id");
  EXPECT_EQ(etl->credentials.session_token, "etl-token");
  EXPECT_EQ(etl->region, "eu-north-1");
  EXPECT_EQ(etl->endpoint, "http://127.0.0.1:9999");
  auto by_home = ResolveS3Config({}, Env({{"HOME", dir + "/nohome"}, {"AWS_SHARED_CREDENTIALS_FILE", dir + "/credentials"},
                                          {"AWS_CONFIG_FILE", dir + "/config"}}));
  ASSERT_TRUE(by_home);
  EXPECT_EQ(by_home->credentials.access_key_id, "d-id");
  EXPECT_EQ(by_home->region, "us-east-2");
  std::filesystem::remove_all(dir);
}

TEST(S3ConfigTest, MalformedSettingsAreRefusedNamingThemAndNeverTheSecret) {
  auto half = ResolveS3Config({{"s3.access-key-id", "id"}}, Env({}));
  ASSERT_FALSE(half);
  EXPECT_NE(half.error().message.find("s3.secret-access-key"), std::string::npos);
  auto secret_only = ResolveS3Config({{"s3.secret-access-key", "hush-hush"}}, Env({}));
  ASSERT_FALSE(secret_only);
  EXPECT_EQ(secret_only.error().message.find("hush-hush"), std::string::npos);
  auto env_half = ResolveS3Config({}, Env({{"AWS_ACCESS_KEY_ID", "x"}}));
  ASSERT_FALSE(env_half);
  EXPECT_NE(env_half.error().message.find("AWS_SECRET_ACCESS_KEY"), std::string::npos);
  auto endpoint = ResolveS3Config({{"s3.endpoint", "localhost:9000"}}, Env({}));
  ASSERT_FALSE(endpoint);
  EXPECT_NE(endpoint.error().message.find("s3.endpoint"), std::string::npos);
  auto style = ResolveS3Config({{"s3.path-style-access", "yes"}}, Env({}));
  ASSERT_FALSE(style);
  EXPECT_NE(style.error().message.find("s3.path-style-access"), std::string::npos);
}

TEST(S3LocationTest, ParsesBucketAndKeyAndRefusesMalformedUris) {
  auto ok = ParseS3Location("s3://my-bucket/warehouse/db/t/metadata/v1.metadata.json");
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->bucket, "my-bucket");
  EXPECT_EQ(ok->key, "warehouse/db/t/metadata/v1.metadata.json");
  EXPECT_EQ(ok->Uri(), "s3://my-bucket/warehouse/db/t/metadata/v1.metadata.json");
  auto hadoop = ParseS3Location("s3a://bkt/k");
  ASSERT_TRUE(hadoop);
  EXPECT_EQ(hadoop->Uri(), "s3a://bkt/k");
  for (const char* bad : {"s3://", "s3:///key", "s3://Upper/k", "s3://ab/k", "s3://-bad-/k", "gs://b/k",
                          "s3:/bucket/k", "s3://bucket/k?versionId=1"}) {
    auto parsed = ParseS3Location(bad);
    ASSERT_FALSE(parsed) << bad;
    EXPECT_EQ(parsed.error().kind, ErrorKind::kInvalidArgument);
    EXPECT_NE(parsed.error().message.find(bad), std::string::npos) << parsed.error().message;
  }
}

TEST(S3LocationTest, IsoTimes) {
  EXPECT_EQ(ParseIsoTimeMs("1970-01-01T00:00:01.250Z"), 1250);
  EXPECT_EQ(ParseIsoTimeMs("2013-05-24T00:00:00Z"), int64_t{1369353600} * 1000);
  EXPECT_EQ(ParseIsoTimeMs("garbage"), 0);
}

}  // namespace
}  // namespace floe
